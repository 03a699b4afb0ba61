"""The committed results, examples and docs name no folder of the machine they were made on.

A path of a checkout, a home or a temp folder in a record or a page (60+ files under benchmarks/results
once held them) tells a reader nothing and leaks where the work was done; records name files relative to
the repository or the run folder (tools/paths.py). This searches every committed text file under
benchmarks/, examples/ and docs/ for such a path, and this checkout's own path.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("benchmarks", "examples", "docs")
# Where a machine keeps checkouts, homes and temp files: /home/<user>, /root, /Users/<user>, /tmp, /var/tmp,
# macOS's /var/folders and /private/var, and /work (the development machines' checkouts).
HOST_PATH = re.compile(r"(?<![\w.~-])/(?:home/\w|root/|Users/\w|tmp/|var/tmp/|var/folders/|private/var/|work/)")


def committed_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", *FOLDERS], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    files = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        try:
            path.read_text()
        except (UnicodeDecodeError, OSError):  # pictures, compressed files: not text
            continue
        files.append(path)
    return files


def host_paths(text: str) -> list[str]:
    """The host paths in `text`, each as the line it is on (cut to 160 characters)."""
    found = []
    for line in text.splitlines():
        if HOST_PATH.search(line) or str(ROOT) in line:
            found.append(line.strip()[:160])
    return found


def test_the_search_finds_what_it_looks_for():
    for line in (
        "/tmp/kw-tests-x/run",
        '"candidate": "/home/ana/kernels/rope.py"',
        "cd /work/wt-ui/examples",
        str(ROOT),
    ):
        assert host_paths(line), line
    for line in ("kernels/rope/tilelang.py", "https://example.invalid/tmp/x", "see docs/tmp/notes", "/usr/bin/time"):
        assert not host_paths(line), line


def test_results_examples_and_docs_name_no_host_path():
    files = committed_text_files()
    if not files:
        pytest.skip("not a git checkout")
    leaks = {str(f.relative_to(ROOT)): lines for f in files if (lines := host_paths(f.read_text()))}
    assert not leaks, "host paths in committed files:\n" + "\n".join(
        f"{name}: {lines[0]}" + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
        for name, lines in leaks.items()
    )
