"""Theory: bounds registry, exact inequality prover, extremal problems, estimation bounds."""
