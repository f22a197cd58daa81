"""The commands of `gkecap`; `gkecap.cli` registers them (they never import the CLI)."""
