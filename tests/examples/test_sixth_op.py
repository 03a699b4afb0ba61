"""Adding an operator touches only its own folder: examples/sixth_op/softmax/ as kernels/softmax/ in a copy.

The copy is the repository's tracked files (without the recorded runs and benchmarks) committed
in a fresh git repository; the softmax folder is then copied in and nothing else is edited.
From there, in child processes of that copy: the CLI lists softmax, the registry returns its
spec and finds no Liger adapter for it, the evaluator accepts its honest candidate and rejects
its wrong one, and the shipped NineToothed kernel matches the reference under Triton's
interpreter; `agent optimize softmax --e2e` refuses, as the Llama model never calls softmax, so its token check
would pass without running the kernel. NineToothed candidates are not evaluated on the CPU: the evaluator's runners have
no stand-in for Triton's GPU driver (tests/kernels/ninetoothed_interpreter.py is the tests' one).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sixth_op" / "softmax"
# Recorded results and runs: data, not code, and most of the repository's bytes.
LEFT_OUT = ("benchmarks/", "examples/")
FIVE = ["rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul"]
REGISTRY_TESTS = (
    "tests/kernels/test_registry.py",
    "tests/kernels/test_imports.py",
    "tests/agent/test_catalogue.py",
    "tests/tools/test_liger.py::test_every_op_folder_with_an_adapter_has_one_and_the_ops_the_model_calls_do",
)

# Run in the copy: its registry, Liger lookup, and the shipped kernel under the interpreter, as JSON.
CHECKS = """
import json, pathlib, sys
from workbench.kernels.registry import OPERATORS, spec
from workbench.kernels.spec import compare, parse_dtype
from tests.kernels.ninetoothed_interpreter import Case, case_inputs, run_cases
from tools import liger

softmax = spec("softmax")
try:
    liger.load("softmax")
    liger_note = "loaded"
except liger.LigerUnavailable as err:
    liger_note = str(err)
cases = [Case(f"softmax/{s.name}-{d}", "softmax", s.dims, d) for s in softmax.hidden_shapes for d in ("bf16", "fp32")]
outcomes = run_cases(cases, pathlib.Path(sys.argv[1]), workers=1, timeout=600)
verdicts = {}
for case in cases:
    outcome = outcomes[case.id]
    if outcome.error:
        verdicts[case.id] = f"{outcome.error}: {outcome.message}"
        continue
    args, dtype = case_inputs(case), parse_dtype(case.dtype)
    comparison = compare(outcome.output, softmax.reference(*args), softmax.tolerance(dtype))
    verdicts[case.id] = "ok" if comparison.ok and outcome.returned_out else comparison.message
print(json.dumps({"operators": list(OPERATORS), "name": softmax.name, "liger": liger_note, "verdicts": verdicts}))
"""


def _git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=test", "-c", "user.email=test@localhost", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout


def _temp_of(repo: Path) -> Path:
    """The copy's processes' TMPDIR: the pytest run in the copy fails if anything new appears in its temp
    folder, and this suite's other tests write to the suite's one meanwhile."""
    return repo.with_name(repo.name + "-tmp")


@pytest.fixture(scope="module")
def repo() -> Path:
    """The copy with kernels/softmax/ added; readable by other users, as the evaluator's runners need."""
    if not (ROOT / ".git").exists():
        pytest.skip("needs the repository's git checkout to know its tracked files")
    path = Path(tempfile.mkdtemp(prefix="kw-sixth-op-"))
    os.chmod(path, 0o755)
    tracked = _git(ROOT, "ls-files", "-z").split("\0")
    for name in (n for n in tracked if n and not n.startswith(LEFT_OUT)):
        if (ROOT / name).is_file():  # a file deleted but not yet committed is left out
            (path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, path / name)
    _git(path, "init", "-q")
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "the repository as it is")
    shutil.copytree(EXAMPLE, path / "kernels" / "softmax", ignore=shutil.ignore_patterns("__pycache__"))
    temp = _temp_of(path)
    temp.mkdir(mode=0o711)
    os.chmod(temp, 0o711)  # runners of their own uid pass through it to their scratch folders
    yield path
    shutil.rmtree(path, ignore_errors=True)
    shutil.rmtree(temp, ignore_errors=True)


def _module(path: Path) -> ModuleType:
    """A file of plain data (the op folder's candidates) imported by path: this process has no
    workbench.kernels.softmax."""
    spec = importlib.util.spec_from_file_location("softmax_candidates", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _python(repo: Path, *args: str) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(repo), "COLUMNS": "200", "TMPDIR": str(_temp_of(repo))}
    return subprocess.Popen(
        [sys.executable, *args], cwd=repo, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _finish(process: subprocess.Popen) -> subprocess.CompletedProcess:
    stdout, stderr = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_a_sixth_op_needs_only_its_folder(repo: Path, tmp_path: Path) -> None:
    assert _git(repo, "status", "--porcelain").splitlines() == ["?? kernels/softmax/"]

    candidates = _module(repo / "kernels" / "softmax" / "candidates.py")
    good, wrong = repo / "good.py", repo / "wrong.py"
    good.write_text(candidates.GOOD_SOFTMAX)
    wrong.write_text(candidates.OVER_THE_ROWS)
    for path in (good, wrong):
        os.chmod(path, 0o644)
    evaluation = ("-m", "agent", "eval", "softmax", "--backend", "torch", "--device", "cpu", "--no-bench")
    evaluation += ("--shapes", "decode1", "--dtypes", "bf16", "fp32", "--candidate")
    # Side by side: each spends most of its time starting runners.
    running = {
        "ops": _python(repo, "-m", "agent", "ops", "--backend", "torch"),
        "good": _python(repo, *evaluation, str(good)),
        "wrong": _python(repo, *evaluation, str(wrong)),
        "checks": _python(repo, "-c", CHECKS, str(tmp_path)),
        "e2e": _python(repo, "-m", "agent", "optimize", "softmax", "--backend", "ninetoothed", "--e2e"),
        # Tests over every op folder (registry, imports, catalogue, Liger) hold with the sixth op, unedited.
        "tests": _python(repo, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *REGISTRY_TESTS),
    }
    done = {name: _finish(process) for name, process in running.items()}

    ops = done["ops"]
    assert ops.returncode == 0, ops.stderr
    assert [line.split()[0] for line in ops.stdout.splitlines()] == [*FIVE, "softmax"]
    assert all(line.split()[1] == "native" for line in ops.stdout.splitlines())

    assert done["good"].returncode == 0, done["good"].stdout + done["good"].stderr
    assert "OK in" in done["good"].stdout
    assert done["wrong"].returncode == 1, done["wrong"].stdout + done["wrong"].stderr
    assert "correctness" in done["wrong"].stdout

    checks = done["checks"]
    assert checks.returncode == 0, checks.stderr
    result = json.loads(checks.stdout.splitlines()[-1])
    assert result["operators"] == [*FIVE, "softmax"] and result["name"] == "softmax"
    assert result["liger"] == "Liger-Kernel has no kernel for softmax"
    assert result["verdicts"] and set(result["verdicts"].values()) == {"ok"}, result["verdicts"]

    assert done["tests"].returncode == 0, done["tests"].stdout[-3000:]

    e2e = done["e2e"]  # refused before it looks for a GPU: the op's folder says where the model calls it, or not
    assert e2e.returncode == 2 and e2e.stdout == "", e2e.stderr
    assert e2e.stderr.startswith("agent: error: --e2e: the Llama model never calls softmax"), e2e.stderr

    # Running all that changed no tracked file: besides the new folder, only the two candidates written here.
    status = sorted(_git(repo, "status", "--porcelain").splitlines())
    assert status == ["?? good.py", "?? kernels/softmax/", "?? wrong.py"]
