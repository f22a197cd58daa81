"""What GKE and Compute Engine accept: node pools, calendar windows, boot disks (pure, from the catalog)."""
