"""gkecap: plan and check gke-capacity environments offline (no cloud account needed)."""
