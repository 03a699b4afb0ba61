"""Code outside tests/ never imports tests/: the product and its probes must run from a checkout without them."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports_of_tests(source: str) -> list[int]:
    """Line numbers of the imports of the `tests` package in `source`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name == "tests" or name.startswith("tests.") for name in names):
            lines.append(node.lineno)
    return lines


def test_the_search_finds_what_it_looks_for():
    assert imports_of_tests("import tests.tiny\n") == [1]
    assert imports_of_tests("def f():\n    from tests.tools import x\n") == [2]
    assert imports_of_tests("from tests import conftest\n") == [1]
    assert not imports_of_tests("import testsuite\nfrom .tests import x\nfrom tools import tests\n")


def test_no_code_outside_tests_imports_tests():
    listed = subprocess.run(["git", "ls-files", "-z", "*.py"], cwd=ROOT, capture_output=True, text=True).stdout
    files = [name for name in listed.split("\0") if name and not name.startswith("tests/")]
    if not files:
        pytest.skip("not a git checkout")
    found = {name: lines for name in files if (lines := imports_of_tests((ROOT / name).read_text()))}
    assert not found, "imports of tests/ outside it: " + ", ".join(f"{n} line {ls[0]}" for n, ls in found.items())
