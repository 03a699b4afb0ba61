"""The review UI (DESIGN §6): a Streamlit app over run folders and their git history; `agent ui` starts it."""
