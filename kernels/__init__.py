"""The operator library: one folder per op, a registry with a torch fallback."""
