"""`agent ui`: Streamlit stops with it, on SIGTERM too; a runs folder that is not there is named."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from agent.ui_server import missing_runs_note
from tests.ui.browser import free_port

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(check, what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.2)


def _serves(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return answer.read() == b"ok"
    except OSError:
        return False


def test_sigterm_to_agent_ui_stops_the_streamlit_server(tmp_path):
    port = free_port()
    log = tmp_path / "ui.log"
    with open(log, "w") as out:
        agent = subprocess.Popen(
            [sys.executable, "-m", "agent", "ui", "--runs-dir", str(tmp_path / "nowhere"), "--port", str(port)],
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    servers: list[int] = []
    try:
        _wait(lambda: _serves(f"http://127.0.0.1:{port}") or agent.poll() is not None, "the server answering")
        assert agent.poll() is None, log.read_text()
        servers = _children(agent.pid)
        assert servers
        agent.send_signal(signal.SIGTERM)  # `kill PID`: agent ui alone, not its process group
        assert agent.wait(timeout=30) == 0
        _wait(lambda: not any(_alive(pid) for pid in servers), "streamlit stopping", timeout=30)
    finally:
        for pid in [agent.pid, *servers]:  # whatever is left, so a failure leaves nothing serving
            try:
                os.killpg(pid, signal.SIGKILL) if pid == agent.pid else os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        agent.wait()
    text = log.read_text()
    assert f"no folder {tmp_path / 'nowhere'}" in text and "--runs-dir examples/runs" in text


def test_the_runs_folder_note_names_what_is_wrong(tmp_path):
    assert missing_runs_note(tmp_path) is None
    assert "no runs to show yet" in missing_runs_note(tmp_path / "missing")
    (tmp_path / "file").write_text("")
    assert "is not a folder" in missing_runs_note(tmp_path / "file")
