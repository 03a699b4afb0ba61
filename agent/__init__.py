"""The agent loop and the `agent` command line."""
