"""Proposal policies: `search` (no LLM) and `llm` (any OpenAI-compatible endpoint)."""
