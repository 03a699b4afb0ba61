"""`agent ui`: the Streamlit review app over a folder of runs, on this machine only."""

from __future__ import annotations

import sys
from pathlib import Path

from agent.commands.options import runs_dir

HELP = "review runs in the browser: a Streamlit app over the run folders"


def add_arguments(p) -> None:
    runs_dir(p)
    p.add_argument("--port", type=int, default=8501)


def run(args) -> int:
    """Start the Streamlit review app (ui/app.py) over a folder of runs, on this machine only."""
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]  # ui/ sits beside agent/, in a checkout and in site-packages
    app = root / "ui" / "app.py"
    # `python -m agent ui` works without installing: the app imports ui/ and agent/ from the project root.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(args.port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    # A review app, not a script being developed: no Deploy button or developer menu. A flag, which
    # overrides every config.toml (~/.streamlit, the working directory's, ui/.streamlit), from any cwd.
    command += ["--client.toolbarMode", "viewer"]
    command += ["--", "--runs", str(Path(args.runs_dir).resolve())]
    print(f"agent ui: http://127.0.0.1:{args.port} (runs from {Path(args.runs_dir).resolve()}); Ctrl-C stops it")
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:
        return 0
