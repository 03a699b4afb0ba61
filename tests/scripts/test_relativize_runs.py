"""scripts/relativize_runs.py: older run folders' absolute paths, rewritten to the form new runs write."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "relativize_runs.py"
EXAMPLES = ROOT / "examples" / "runs"
ROPE = "20261129-131457-rope-tilelang-5df4"
ABSOLUTE = re.compile(r"(?<![\w.-])/(?:work|tmp|home|root|Users)/")


def relativize(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_committed_examples_hold_no_absolute_path_of_another_machine():
    done = relativize("--check")
    assert done.returncode == 0, done.stdout
    leaks = [p for p in EXAMPLES.rglob("*") if p.is_file() and ABSOLUTE.search(p.read_text(errors="replace"))]
    assert leaks == []


def test_an_old_run_is_rewritten_as_new_runs_write_it_and_a_second_pass_changes_nothing(tmp_path):
    run = shutil.copytree(EXAMPLES / ROPE, tmp_path / "runs" / ROPE)
    old = f"/tmp/wb/runs/{ROPE}"  # as the H200 session recorded it
    text = (run / "run.json").read_text()
    text = text.replace('"kernel_file": "kernels/', '"kernel_file": "/tmp/wb/kernels/')
    (run / "run.json").write_text(text.replace('"worktree": "worktree"', f'"worktree": "{old}/worktree"'))
    for record in run.glob("iterations/*/eval.json"):
        text = record.read_text().replace('"candidate": "iterations/', f'"candidate": "{old}/iterations/')
        record.write_text(text)
    assert relativize("--check", str(tmp_path / "runs")).returncode == 1

    done = relativize(str(tmp_path / "runs"))
    assert done.returncode == 0 and "rewrote 12 file(s)" in done.stdout  # run.json and 11 eval.json
    assert files(run) == files(EXAMPLES / ROPE)
    again = relativize(str(tmp_path / "runs"))
    assert "rewrote 0 file(s)" in again.stdout and files(run) == files(EXAMPLES / ROPE)


def test_a_kernel_outside_any_repository_stays_absolute_and_is_listed(tmp_path):
    run = shutil.copytree(EXAMPLES / ROPE, tmp_path / "runs" / ROPE)
    data = json.loads((run / "run.json").read_text())
    data["kernel_file"], data["workspace"]["own_repository"] = "/home/someone/k.py", True
    (run / "run.json").write_text(json.dumps(data, indent=1) + "\n")
    done = relativize("--check", str(tmp_path / "runs"))
    assert done.returncode == 1
    assert f"{ROPE}/run.json: kernel_file = /home/someone/k.py" in done.stdout
    relativize(str(tmp_path / "runs"))
    assert json.loads((run / "run.json").read_text())["kernel_file"] == "/home/someone/k.py"
