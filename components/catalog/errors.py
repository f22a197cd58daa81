"""The one error type the catalog raises."""

from __future__ import annotations


class CatalogError(ValueError):
    """Unknown machine type, malformed or invalid topology; the message lists what is valid."""
