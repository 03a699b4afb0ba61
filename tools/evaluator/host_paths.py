"""Where runners' files live on the host, and which paths a runner of another uid can read.

Plain file-system facts, shared by the runner's identity (tools/evaluator/confine.py) and the choice of
confinement (tools/evaluator/sandbox.py); standard library only, as `confine.enter` runs before anything else.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def runner_root() -> Path:
    """Where runners' caches and scratch folders live: traversable by runner uids, writable by the judge only."""
    base = Path(os.environ.get("KW_RUNNER_DIR") or Path(tempfile.gettempdir()) / f"kernel-workbench-{os.geteuid()}")
    base.mkdir(parents=True, exist_ok=True)
    os.chmod(base, 0o711)
    return base


def readable_by_others(path: Path) -> bool:
    """Whether a user other than the owner (and not root) can reach and read `path`."""
    path = Path(path).resolve()
    try:
        for parent in reversed(path.parents):
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
        mode = os.stat(path).st_mode
    except OSError:
        return False
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & need == need


def separation_blockers(paths: list[Path]) -> list[str]:
    """The paths a runner of another uid could not read (why uid separation is off), empty when none."""
    return [str(p) for p in paths if p and not readable_by_others(p)]
