"""The static check refuses what a kernel file may not do, and passes the shipped kernels."""

from __future__ import annotations

import pytest

from kernels.registry import OPERATORS
from tools.candidate import default_candidate
from tools.static_check import check_file, check_source

HEADER = "import torch\nimport tilelang.language as T\nfrom kernels.rope.spec import SPEC\n\n\n"


def rope_file(body: str) -> str:
    return HEADER + "def rope(x, sin, cos, *, out=None):\n" + body + "    return out\n"


@pytest.mark.parametrize("op", OPERATORS)
@pytest.mark.parametrize("backend", ["tilelang", "ninetoothed"])
def test_shipped_kernels_pass(op, backend):
    report = check_file(default_candidate(op, backend), op)
    assert report.ok, report.message


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
    "imports",
    [
        "import threading\n",
        "from concurrent.futures import ThreadPoolExecutor\n",
        "import subprocess\n",
        "from kernels.registry import operator\n",
        "from kernels.rope.spec import reference\n",
        "import importlib\n",
        "from transformers.models.llama import modeling_llama\n",
    ],
)
def test_forbidden_imports(imports):
    assert not check_source(imports + rope_file(""), "rope").ok


def test_kernel_dsl_math_is_allowed():
    body = "    y = T.rsqrt(x)\n    z = T.exp(y)\n"
    assert check_source(rope_file(body), "rope").ok


def test_the_torch_backend_may_use_torch_math_but_not_the_reference():
    assert check_source(rope_file("    y = torch.cat((x, x), -1)\n"), "rope", allow_torch_math=True).ok
    report = check_source(rope_file("    y = SPEC.reference(x, sin, cos)\n"), "rope", allow_torch_math=True)
    assert not report.ok


def test_the_op_function_must_exist():
    assert "defines no top-level function rope()" in check_source(HEADER, "rope").message


def test_an_unreadable_file(tmp_path):
    assert "cannot read" in check_file(tmp_path / "nope.py", "rope").message
