"""`agent eval --set KEY=VALUE`: a kernel file with some CONFIG values changed, written where a person can read it.

A kernel developer's quickest A/B is one setting flipped (rope's `copy_tiles=True`) against
the shipped file. The variant is the same source with only the CONFIG literal rewritten (the
edit the search policy makes), saved under runs/variants/ (or the --runs-dir given) by content hash, and evaluated as a
candidate: what was timed is a file, not a hidden parameter.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from agent.policies.source_edit import read_literal, replace_config
from tools.paths import default_candidate
from tools.runfolder import RUNS_DIR

VARIANTS_DIR = RUNS_DIR / "variants"


def parse_settings(settings: list[str], config: dict) -> dict:
    """`["copy_tiles=True", "block_rows=32"]` as CONFIG values; raises ValueError saying what is wrong."""
    values = {}
    for item in settings:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--set {item!r}: write KEY=VALUE, e.g. --set block_rows=32")
        if key not in config:
            raise ValueError(f"--set {key}: the kernel's CONFIG has no such key; it has {', '.join(config)}")
        try:
            values[key] = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            raise ValueError(f"--set {item!r}: {text!r} is not a Python literal (e.g. 32, True, 'fp32')") from None
    return values


def write_variant(
    kernel_file: str | Path | None, settings: list[str], op: str, backend: str, folder: Path = VARIANTS_DIR
) -> tuple[Path, Path]:
    """(variant, base): `kernel_file` (default: the backend's) with `settings` applied to its CONFIG, saved as
    folder/<op>-<backend>-<sha256[:10]>.py."""
    base = Path(kernel_file) if kernel_file else default_candidate(op, backend)
    if base is None:
        raise ValueError("--set changes a kernel file's CONFIG; the torch backend has none")
    source = base.read_text()
    config = read_literal(source, "CONFIG")
    variant = replace_config(source, {**config, **parse_settings(settings, config)})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{op}-{backend}-{hashlib.sha256(variant.encode()).hexdigest()[:10]}.py"
    path.write_text(variant)
    return path, base
