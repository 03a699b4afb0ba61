"""Where the project's files are, and how a kernel file is identified (by its content)."""

from __future__ import annotations

import hashlib
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_candidate(op: str, backend: str) -> Path | None:
    """The kernel file the agent edits; the torch backend has none (it is the reference)."""
    if backend == "torch":
        return None
    return PROJECT_ROOT / "kernels" / op / f"{backend}.py"


def sha256_file(path: Path | None) -> str:
    if path is None:
        return "torch-reference"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
