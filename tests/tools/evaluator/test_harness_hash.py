"""The harness hash covers the evaluator and the specs only: a change elsewhere in tools/ is not a new ruler."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tools.evaluator import evaluate

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def tree(tmp_path, monkeypatch) -> Path:
    """A copy of the files the hash could cover (and tools/report.py, which it must not), as the project root."""
    shutil.copytree(ROOT / "tools", tmp_path / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "kernels", tmp_path / "kernels", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(evaluate, "PROJECT_ROOT", tmp_path)
    return tmp_path


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


@pytest.mark.parametrize(
    "changed",
    [
        "tools/report.py",
        "tools/evaluator/records.py",
        "kernels/rope/tilelang.py",
        "kernels/ninetoothed_support.py",
        "kernels/rope/liger.py",
        "kernels/rope/candidates.py",
    ],
)
def test_a_change_outside_the_evaluator_and_specs_keeps_the_hash(tree, changed):
    before = evaluate.harness_sha256()
    _edit(tree / changed)
    assert evaluate.harness_sha256() == before


@pytest.mark.parametrize("changed", ["tools/evaluator/judge.py", "kernels/spec.py", "kernels/rope/spec.py"])
def test_a_change_to_the_evaluator_or_a_spec_changes_the_hash(tree, changed):
    before = evaluate.harness_sha256()
    _edit(tree / changed)
    assert evaluate.harness_sha256() != before
