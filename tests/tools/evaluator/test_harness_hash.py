"""The harness hash covers the project modules the judge's process loaded, and nothing else.

It is taken from `sys.modules` when the verdict is in, so the acceptance rule, the record types and the
native ops are covered because the judge imported them, not because a list of folders names them.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

from tools.evaluator import evaluate
from tools.evaluator.options import EvalOptions

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def tree(tmp_path, monkeypatch) -> Path:
    """A copy of the project's packages, as the project root the hash reads from."""
    for package in ("tools", "kernels", "workbench", "agent"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(evaluate, "PROJECT_ROOT", tmp_path)
    return tmp_path


def _loaded(tree: Path, monkeypatch) -> None:
    """Point the modules this process has loaded at the copy (their __file__), as if imported from it."""
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file:
            continue
        try:
            relative = Path(file).resolve().relative_to(ROOT)
        except ValueError:
            continue
        monkeypatch.setattr(module, "__file__", str(tree / relative), raising=False)


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


@pytest.mark.parametrize(
    "changed",
    ["tools/evaluator/decide.py", "tools/evaluator/records.py", "tools/evaluator/judge.py", "kernels/rope/spec.py"],
)
def test_a_change_to_a_module_the_judge_loaded_changes_the_hash(tree, monkeypatch, changed):
    importlib.import_module("tools.evaluator.decide")  # the judge imports it to gate its dtypes stage
    importlib.import_module("workbench.kernels.rope.spec")
    _loaded(tree, monkeypatch)
    before, modules = evaluate.harness_sha256()
    assert changed in modules
    _edit(tree / changed)
    assert evaluate.harness_sha256()[0] != before


def test_a_module_the_judge_never_loaded_is_not_covered(tree, monkeypatch):
    name = "workbench.kernels.rope.candidates"
    monkeypatch.delitem(sys.modules, name, raising=False)
    _loaded(tree, monkeypatch)
    before, modules = evaluate.harness_sha256()
    assert "kernels/rope/candidates.py" not in modules
    _edit(tree / "kernels/rope/candidates.py")
    assert evaluate.harness_sha256()[0] == before


def test_a_record_names_the_modules_its_hash_covers(tmp_path):
    record = evaluate.evaluate(
        "rms_norm", "torch", None, EvalOptions(shapes=["llama3.2-1b/decode1"], device="cpu", batches=3, baselines=())
    )
    assert record.status == "ok", record.message
    assert "tools/evaluator/decide.py" in record.harness_modules
    assert "tools/evaluator/judge.py" in record.harness_modules
    assert "kernels/rms_norm/spec.py" in record.harness_modules
    assert len(record.harness_sha256) == 64
