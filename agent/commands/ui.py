"""`agent ui`: the Streamlit review app over a folder of runs, on this machine only."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import runs_dir

HELP = "review runs in the browser: a Streamlit app over the run folders"


def add_arguments(p) -> None:
    runs_dir(p)
    p.add_argument("--port", type=int, default=8501)


def run(args) -> int:
    """Start the Streamlit review app (ui/app.py) over a folder of runs, on this machine only."""
    from agent.ui_server import serve

    return serve(Path(args.runs_dir), args.port)
