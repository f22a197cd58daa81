"""Kubernetes formats: names, labels and selectors (as apimachinery validates them) and resource quantities."""
