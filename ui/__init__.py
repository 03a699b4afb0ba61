"""The review UI (docs/design.md, "UI and export").

A Streamlit app over run folders and their git history; `agent ui` starts it.
"""
