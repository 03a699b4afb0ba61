"""The review UI (docs/ui.md).

A Streamlit app over run folders and their git history; `agent ui` starts it.
"""
