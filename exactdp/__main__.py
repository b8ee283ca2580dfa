"""``python -m exactdp`` — the same as the ``exactdp`` command."""

from exactdp.cli import main

raise SystemExit(main())
