"""The app's pages, one script each (Streamlit runs them; `ui/app.py` routes between them)."""
