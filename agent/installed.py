"""Whether the library a backend's kernels need is installed, said before anything runs.

A CPU install leaves NineToothed out (its Triton is 1 GB that only a GPU or the tests' interpreter runs;
docs/install.md), so `agent eval --backend ninetoothed` on a GPU host installed that way would otherwise
fail inside a runner, at the compile stage, with an import traceback.
"""

from __future__ import annotations

import importlib.util

# backend -> (module its kernels import, the extra of pyproject.toml that installs it)
LIBRARIES = {"tilelang": ("tilelang", None), "ninetoothed": ("ninetoothed", "gpu")}


def missing(backend: str) -> str | None:
    """What to install for `backend`, or None when nothing is missing."""
    module, extra = LIBRARIES.get(backend, (None, None))
    if module is None or importlib.util.find_spec(module) is not None:
        return None
    how = f'pip install -e ".[{extra}]"' if extra else f"pip install {module}"
    return f"the {backend} backend needs the {module} package, which is not installed here: {how}"


def require(backend: str) -> None:
    """Raises RuntimeError saying what to install when `backend`'s library is missing."""
    note = missing(backend)
    if note:
        raise RuntimeError(note)
