"""Where the project's files are, how a kernel file is identified (by its content), and how paths are recorded.

Records that outlive the process (run folders, eval.json) hold paths that work from any clone: a file of
the repository as a path relative to the repository root (`kernels/rope/tilelang.py`), a file of a run
folder relative to that run folder (`iterations/0001/candidate.py`); a file outside both (a user's own
`--candidate /tmp/k.py`) stays absolute, which is how a reader tells them apart.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RUNS_DIR = PROJECT_ROOT / "runs"  # where runs land unless --runs-dir says otherwise
EXAMPLE_RUNS = PROJECT_ROOT / "examples" / "runs"  # committed runs: read, never written (agent export writes to runs/)


def default_candidate(op: str, backend: str) -> Path | None:
    """The kernel file the agent edits; the torch backend has none (it is the reference)."""
    if backend == "torch":
        return None
    return PROJECT_ROOT / "kernels" / op / f"{backend}.py"


def sha256_file(path: Path | None) -> str:
    if path is None:
        return "torch-reference"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_path(path: str | Path, base: Path = PROJECT_ROOT) -> str:
    """`path` as a record keeps it: relative to `base` (POSIX separators) when it is inside it, else absolute."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path(base).resolve()).as_posix()
    except ValueError:
        return str(absolute)


def resolve_path(recorded: str | Path, base: Path = PROJECT_ROOT) -> Path:
    """A recorded path on this machine: a relative one is under `base` (by default the clone this runs in)."""
    path = Path(recorded)
    return path if path.is_absolute() else Path(base) / path
