"""Output for CI: diagnostics with their file and line, the `--format json` document and SARIF 2.1.0."""
