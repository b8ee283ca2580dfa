"""Theory layer: bounds, exact decisions and extremal (LP) suprema built on the measures."""
