"""The offline engine: runs a Pulumi program on a mocked runtime and records every registration."""
