"""The capacity model as plain Kubernetes objects: Kueue flavors and queues, namespaces, RBAC, chart values."""
