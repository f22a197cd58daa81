"""`python -m gkecap`: the same as the `gkecap` console script."""

from gkecap.cli import main

main()
