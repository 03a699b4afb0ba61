"""One environment: the workbench's kernels and Hugging Face's `kernels` package (transformers) in one process."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HF_KERNELS = importlib.util.find_spec("transformers") is not None

CHECK = (
    "import kernels, transformers.integrations.hub_kernels, workbench.kernels.registry as r; "
    "from transformers import LlamaForCausalLM; "
    "print(kernels.__file__); print(r.__file__)"
)


def _run(code: str, cwd: Path, pythonpath: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split()


@pytest.mark.skipif(not HF_KERNELS, reason="transformers (and Hugging Face's kernels) not installed")
@pytest.mark.parametrize("where", ["checkout", "elsewhere"])
def test_hugging_faces_kernels_and_ours_import_in_one_process(where, tmp_path):
    cwd, path = (ROOT, None) if where == "checkout" else (tmp_path, str(ROOT))
    theirs, ours = _run(CHECK, cwd, path)
    assert not theirs.startswith(str(ROOT)), theirs  # `kernels` is Hugging Face's
    assert ours == str(ROOT / "kernels" / "registry.py")


def test_a_kernel_file_written_with_the_old_name_still_imports(tmp_path):
    old = tmp_path / "old_candidate.py"
    old.write_text("from kernels.rms_norm.spec import SPEC\nimport kernels.registry as registry\n")
    code = (
        "import importlib.util, sys, workbench, workbench.kernels.registry as new; "
        "workbench.alias_old_kernel_imports(); "
        f"spec = importlib.util.spec_from_file_location('c', {str(old)!r}); m = importlib.util.module_from_spec(spec); "
        "spec.loader.exec_module(m); "
        "print(m.registry is new, m.SPEC is sys.modules['workbench.kernels.rms_norm.spec'].SPEC)"
    )
    assert _run(code, tmp_path, str(ROOT)) == ["True", "True"]


def test_no_code_imports_the_old_top_level_name():
    old = []
    for path in ROOT.rglob("*.py"):
        if {"runs", ".git", "__pycache__"} & set(path.relative_to(ROOT).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            old += [f"{path.relative_to(ROOT)}:{node.lineno}" for n in names if n.split(".")[0] == "kernels"]
    assert old == []
