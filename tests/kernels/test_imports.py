"""kernels/ imports nothing of tools/ (tools/ imports the specs), so there is no import cycle between them."""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _imported(path: Path) -> set[str]:
    """Every module a file imports, at module level or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_kernels_file_imports_tools():
    files = sorted(KERNELS.rglob("*.py"))
    assert files, f"no Python files under {KERNELS}"
    offenders = {
        str(path.relative_to(KERNELS)): sorted(n for n in _imported(path) if n == "tools" or n.startswith("tools."))
        for path in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}
