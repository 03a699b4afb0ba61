"""`agent ui`: the Streamlit review app (ui/app.py) in a child process, on this machine only, stopped with us.

The child is Streamlit's server. It stops when `agent ui` gets Ctrl-C, SIGTERM or SIGHUP (the handler passes the
signal on and waits), and, through the kernel's parent-death signal, when `agent ui` is killed outright: a
`kill` of `agent ui` left it serving before.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # ui/ sits beside agent/, in a checkout and in site-packages
APP = ROOT / "ui" / "app.py"
PR_SET_PDEATHSIG = 1  # linux/prctl.h
STOP_WAIT_S = 10.0


def command(runs_dir: Path, port: int) -> list[str]:
    """The streamlit command line: 127.0.0.1 only, headless, no usage statistics, no developer toolbar."""
    line = [sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port)]
    line += ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    # A review app, not a script being developed: no Deploy button or developer menu. A flag, which
    # overrides every config.toml (~/.streamlit, the working directory's, ui/.streamlit), from any cwd.
    line += ["--client.toolbarMode", "viewer"]
    return [*line, "--", "--runs", str(runs_dir)]


def missing_runs_note(runs_dir: Path) -> str | None:
    """What to say when the runs folder is not there (the app then lists no runs), else None."""
    if runs_dir.is_dir():
        return None
    if runs_dir.exists():
        return f"agent ui: {runs_dir} is not a folder; pass --runs-dir a folder of runs"
    return (
        f"agent ui: no folder {runs_dir}, so there are no runs to show yet: `agent optimize` writes them there, "
        "or pass --runs-dir, e.g. --runs-dir examples/runs for the example runs"
    )


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the parent dies, however it dies (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def serve(runs_dir: Path, port: int) -> int:
    """Run the app until it exits or we are told to stop; its exit status (0 when we stopped it)."""
    runs_dir = Path(runs_dir).resolve()
    note = missing_runs_note(runs_dir)
    if note:
        print(note, file=sys.stderr)
    # `python -m agent ui` works without installing: the app imports ui/ and agent/ from the project root.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    print(f"agent ui: http://127.0.0.1:{port} (runs from {runs_dir}); Ctrl-C stops it", flush=True)
    child = subprocess.Popen(command(runs_dir, port), env=env, preexec_fn=_die_with_parent)
    stopping: list[int] = []

    def stop(signum, frame) -> None:
        stopping.append(signum)
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    status = None
    try:
        status = child.wait()
    except KeyboardInterrupt:  # Ctrl-C reached the child too (one process group); it may still be stopping
        stop(signal.SIGINT, None)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if child.poll() is None:  # never leave it serving
            try:
                child.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return 0 if stopping else status
