"""The review UI (docs/ui.md): `agent ui` runs `streamlit run ui/app.py -- --runs DIR`.

Three pages, each with its own URL, so a run or an iteration can be linked to:

    /                                   runs table
    /run?run=RUN_ID                     chart, best version per shape, downloads, environment
    /iteration?run=RUN_ID&iteration=N   diff, prompt and reply, errors, timings per scope, source, profile,
                                        reflection, environment and confinement
                                        (&candidate=K when a round had several candidates)

Timings are shown per scope (graph, eager), each figure naming its own.

Everything is read from the run folders (and the run's git worktree for commit messages); nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent

st.set_page_config(page_title="Kernel workbench runs", page_icon="⚙️", layout="wide")

pages = [
    st.Page(str(HERE / "views" / "runs.py"), title="Runs", url_path="runs", default=True),
    st.Page(str(HERE / "views" / "run.py"), title="Run", url_path="run"),
    st.Page(str(HERE / "views" / "iteration.py"), title="Iteration", url_path="iteration"),
]
# Hidden: the sidebar draws its own links, which carry the run and iteration in the query string.
st.navigation(pages, position="hidden").run()
