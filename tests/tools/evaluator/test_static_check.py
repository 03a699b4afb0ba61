"""The static check refuses what a kernel file may not do, with the line and a reason; the shipped kernels pass."""

from __future__ import annotations

import pytest

from tests.tools.evaluator.lint_cheats import (
    CHEATS,
    HONEST,
    TORCH_CHEATS,
    TORCH_GOOD,
    TRITON_STYLE,
    kernel_file,
    torch_file,
)
from tools.evaluator.static_check import check_file, check_source
from tools.paths import default_candidate

OPS = ("rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul")
HEADER = "import torch\nimport tilelang.language as T\nfrom workbench.kernels.rope.spec import SPEC\n\n\n"


def rope_file(body: str) -> str:
    return HEADER + "def rope(x, sin, cos, *, out=None):\n" + body + "    return out\n"


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("backend", ["tilelang", "ninetoothed"])
def test_shipped_kernels_pass(op, backend):
    report = check_file(default_candidate(op, backend), op)
    assert report.ok, report.message


@pytest.mark.parametrize("kind", ["tilelang", "ninetoothed"])
def test_the_templates_of_the_cheats_are_honest(kind):
    report = check_source(kernel_file(kind), "rope")
    assert report.ok, report.message


@pytest.mark.parametrize(
    ("name", "kind", "source", "fragment"),
    CHEATS,
    ids=[f"{kind}-{name}" for name, kind, _, _ in CHEATS],
)
def test_each_cheat_is_refused_with_its_reason(name, kind, source, fragment):
    report = check_source(source, "rope")
    assert report.ok is False, f"{name} ({kind}) passed"
    assert fragment in report.message, report.message
    assert report.message.startswith("line "), report.message


def test_the_cheats_cover_both_kinds_of_file():
    kinds = {kind for _, kind, _, _ in CHEATS}
    assert kinds == {"tilelang", "ninetoothed"}
    assert len(CHEATS) >= 20
    math = [(name, kind) for name, kind, _, fragment in CHEATS if "tensor arithmetic" in fragment]
    assert {kind for _, kind in math} == {"tilelang", "ninetoothed"}


@pytest.mark.parametrize("kind", ["tilelang", "ninetoothed"])
def test_method_calls_on_sets_lists_dicts_and_caches_pass(kind):
    """seen.add(key), list.append, dict.update and cache.pop are not torch math: only the op's tensors are."""
    report = check_source(HONEST[kind], "rope")
    assert report.ok, report.message


def test_arithmetic_in_kernel_code_and_on_sizes_is_allowed():
    assert check_source(TRITON_STYLE, "rope").ok, check_source(TRITON_STYLE, "rope").message
    body = "    n = x.numel() // x.shape[-1] * 2\n    grid = (n + 127) // 128\n    h = -(-x.size(-1) // 2)\n"
    assert check_source(rope_file(body), "rope").ok


def test_an_operator_cheat_names_its_line():
    report = check_source(kernel_file("tilelang", "    y = x * 2\n"), "rope")
    line = kernel_file("tilelang", "    y = x * 2\n").splitlines().index("    y = x * 2") + 1
    assert report.message.startswith(f"line {line}: tensor arithmetic `x * 2` in host code"), report.message


def test_environment_reads_of_the_allowed_names_pass():
    body = (
        "    import os\n"
        "    a = os.environ.get('TRITON_INTERPRET')\n"
        "    b = os.environ['KW_TILELANG_TARGET']\n"
        "    c = os.getenv('TRITON_INTERPRET', '0')\n"
        "    d = 'KW_TILELANG_TARGET' in os.environ\n"
    )
    report = check_source(rope_file(body), "rope")
    assert report.ok, report.message


def test_the_reporting_helper_may_read_its_generated_source():
    source = kernel_file("ninetoothed")
    assert "pathlib.Path(kernel._source).read_text()" in source
    assert check_source(source, "rope").ok
    elsewhere = source.replace("def generated_source()", "def other_helper()")
    report = check_source(elsewhere, "rope")
    assert not report.ok and "read_text()" in report.message


def test_names_that_shadow_builtins_are_not_the_builtins():
    body = "    input = x\n    compile = 3\n    y = compile\n"
    assert check_source(rope_file(body), "rope").ok
    report = check_source(rope_file("    run = exec\n    run('pass')\n"), "rope")
    assert not report.ok and "uses exec()" in report.message


def test_dunders_a_kernel_file_may_name():
    body = "    n = __name__\n    f = __file__\n    d = rope.__doc__\n    v = torch.__version__\n"
    assert check_source(rope_file(body), "rope").ok


def test_the_torch_backend_may_use_torch_math_and_operators():
    report = check_source(TORCH_GOOD, "rope", allow_torch_math=True)
    assert report.ok, report.message
    assert not check_source(TORCH_GOOD, "rope").ok  # the same file as a kernel backend's


@pytest.mark.parametrize(("name", "source", "fragment"), TORCH_CHEATS, ids=[c[0] for c in TORCH_CHEATS])
def test_the_torch_backend_still_may_not_reach_the_harness(name, source, fragment):
    report = check_source(source, "rope", allow_torch_math=True)
    assert report.ok is False, f"{name} passed"
    assert fragment in report.message, report.message


def test_the_torch_backend_may_read_the_allowed_environment():
    source = torch_file("    flag = os.environ.get('TRITON_INTERPRET')\n", "import os")
    assert check_source(source, "rope", allow_torch_math=True).ok


# -- kept from the first version of the check ---------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("    out.copy_(torch.cat((x, x), -1))\n", "torch.cat()"),
        ("    y = x.float().pow(2)\n", ".pow()"),
        ("    y = torch.nn.functional.rms_norm(x, (4,))\n", "rms_norm()"),
        ("    out = SPEC.reference(x, sin, cos)\n", ".reference"),
        ("    out = SPEC.expected((x, sin, cos), x.dtype)\n", ".expected"),
        ("    try:\n        pass\n    except Exception:\n        pass\n", "line 9: catch-all"),
        ("    try:\n        pass\n    except:\n        pass\n", "line 9: catch-all"),
        ("    s = torch.cuda.Stream()\n", ".Stream"),
        ("    f = getattr(torch, 'ca' + 't')\n", "getattr()"),
        ("    torch.cuda.synchronize = lambda: None\n", "may not patch torch"),
        ("    exec('out = x')\n", "exec"),
    ],
)
def test_forbidden_calls_are_refused_with_the_line(body, fragment):
    report = check_source(rope_file(body), "rope")
    assert not report.ok
    assert fragment in report.message
    assert "line 7" in report.message or "line 9" in fragment


@pytest.mark.parametrize(
    ("imports", "fragment"),
    [
        ("import threading\n", "imports threading"),
        ("from concurrent.futures import ThreadPoolExecutor\n", "imports concurrent.futures"),
        ("import subprocess\n", "imports subprocess"),
        ("from workbench.kernels.registry import operator\n", "imports workbench.kernels.registry"),
        ("from workbench.kernels.rope.spec import reference\n", "may not use the reference"),
        ("import importlib\n", "imports importlib"),
        ("from transformers.models.llama import modeling_llama\n", "imports transformers.models.llama"),
    ],
)
def test_forbidden_imports(imports, fragment):
    report = check_source(imports + rope_file(""), "rope")
    assert not report.ok
    assert fragment in report.message, report.message


def test_kernel_dsl_math_is_allowed():
    body = "    y = T.rsqrt(x)\n    z = T.exp(y)\n"
    assert check_source(rope_file(body), "rope").ok


def test_the_torch_backend_may_use_torch_math_but_not_the_reference():
    assert check_source(rope_file("    y = torch.cat((x, x), -1)\n"), "rope", allow_torch_math=True).ok
    report = check_source(rope_file("    y = SPEC.reference(x, sin, cos)\n"), "rope", allow_torch_math=True)
    assert not report.ok
    assert "may not use the reference" in report.message


def test_the_op_function_must_exist():
    assert "defines no top-level function rope()" in check_source(HEADER, "rope").message


def test_an_unreadable_file(tmp_path):
    assert "cannot read" in check_file(tmp_path / "nope.py", "rope").message
