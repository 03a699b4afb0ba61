"""Data for test_static_check.py: candidate files the static check must refuse, and honest ones it must pass.

CHEATS is a list of (name, source_kind, source, expected_fragment): `source_kind` says which
kind of kernel file the cheat is written into (a small TileLang-style or NineToothed-style RoPE
file, honest apart from the cheat), `expected_fragment` is part of the reason a person reads.
TORCH_CHEATS are the same for the torch backend (allow_torch_math=True), which may use torch math
but not the harness.
"""

from __future__ import annotations

TILELANG = '''"""RoPE in TileLang (test data)."""

import torch
{imports}
from workbench.kernels.rope.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

CONFIG = {{"block_rows": 32, "threads": 128}}

_kernels: dict[tuple, object] = {{}}


def build(heads: int, head_dim: int, dtype: str, block_rows: int, threads: int):
    import tilelang.language as T

    half = head_dim // 2
    rows = T.dynamic("rows")
    seq = T.dynamic("seq")

    @T.prim_func
    def rope_kernel(
        X: T.Tensor((rows, head_dim), dtype),
        Sin: T.Tensor((seq, half), "float32"),
        Cos: T.Tensor((seq, half), "float32"),
        Out: T.Tensor((rows, head_dim), dtype),
    ):
        with T.Kernel(T.ceildiv(rows, block_rows), threads=threads) as bx:
            for i, j in T.Parallel(block_rows, half):
                row = bx * block_rows + i
                if row < rows:
                    pos = (row // heads) % seq
                    x1 = T.cast(X[row, j], "float32")
                    x2 = T.cast(X[row, j + half], "float32")
                    Out[row, j] = T.cast(x1 * Cos[pos, j] - x2 * Sin[pos, j], dtype)
                    Out[row, j + half] = T.cast(x2 * Cos[pos, j] + x1 * Sin[pos, j], dtype)

    return rope_kernel


def _kernel(heads: int, head_dim: int, dtype: torch.dtype):
    key = (heads, head_dim, dtype, tuple(sorted(CONFIG.items())))
    if key not in _kernels:
        _kernels[key] = compile_kernel(build(heads, head_dim, tilelang_dtype(dtype), **CONFIG))
    return _kernels[key]


def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out: torch.Tensor | None = None):
    SPEC.check_inputs(x, sin, cos, out)
    if out is None:
        out = torch.empty_like(x)
    batch, seq, heads, head_dim = x.shape
    half = head_dim // 2
    _kernel(heads, head_dim, x.dtype)(x.view(-1, head_dim), sin, cos, out.view(-1, head_dim))
{body}    return out


def generated_source() -> dict[str, str]:
    """CUDA source of every kernel compiled in this process, by cache key."""
    return {{repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}}
{helpers}'''

NINETOOTHED = '''"""RoPE in NineToothed (test data)."""

from __future__ import annotations

import functools
import os
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor
{imports}
from workbench.kernels.rope.spec import SPEC

CONFIG = {{"block_tokens": 16, "block_heads": 8, "num_warps": 4}}

_kernels: dict[str, object] = {{}}


def arrangement(x, sin_table, cos_table, out, half, block_tokens, block_heads):
    def arrange_x(tensor):
        arranged = tensor.flatten(0, 2).tile((block_tokens, block_heads, half)).tile((1, 1, -1))
        arranged.dtype = arranged.dtype.squeeze((0, 1))
        return arranged

    x_arranged = arrange_x(x)

    def arrange_table(table):
        arranged = table.flatten(0, 2).tile((block_tokens, half)).unsqueeze(1)
        return arranged.expand((-1, x_arranged.shape[1], -1))

    return x_arranged, arrange_table(sin_table), arrange_table(cos_table), arrange_x(out)


def application(x, sin_table, cos_table, out):
    sin = ntl.expand_dims(sin_table, 1)
    cos = ntl.expand_dims(cos_table, 1)
    x1 = ntl.cast(x[0], ntl.float32)
    x2 = ntl.cast(x[1], ntl.float32)
    out[0] = x1 * cos - x2 * sin
    out[1] = x2 * cos + x1 * sin


def premake(head_dim: int, block_tokens: int, block_heads: int) -> tuple:
    arrangement_ = functools.partial(
        arrangement, half=head_dim // 2, block_tokens=block_tokens, block_heads=block_heads
    )
    tensors = (Tensor(4), Tensor(3, dtype=ninetoothed.float32), Tensor(3, dtype=ninetoothed.float32), Tensor(4))
    return arrangement_, application, tensors


def _kernel(head_dim: int):
    key = f"rope[head_dim={{head_dim}}]"
    if key not in _kernels:
        _kernels[key] = ninetoothed.make(
            *premake(head_dim, CONFIG["block_tokens"], CONFIG["block_heads"]), num_warps=CONFIG["num_warps"]
        )
    return _kernels[key]


def _interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET") == "1"


def rope(x, sin, cos, *, out=None):
    SPEC.check_inputs(x, sin, cos, out, require_gpu=not _interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    batch, seq, _, head_dim = x.shape
    half = head_dim // 2
    sin_view = sin.expand(batch, seq, half)
    cos_view = cos.expand(batch, seq, half)
    _kernel(head_dim)(x, sin_view, cos_view, out)
{body}    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {{key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}}
{helpers}'''

TEMPLATES = {"tilelang": TILELANG, "ninetoothed": NINETOOTHED}


def kernel_file(kind: str, body: str = "", imports: str = "", helpers: str = "") -> str:
    """The honest `kind` file with `body` just before `return out`, extra imports and extra top-level code."""
    return TEMPLATES[kind].format(body=body, imports=imports, helpers=("\n\n" + helpers) if helpers else "")


def _cheat(name: str, kind: str, fragment: str, body: str = "", imports: str = "", helpers: str = ""):
    return (name, kind, kernel_file(kind, body, imports, helpers), fragment)


MATH = "the op's math must run in the kernel, not torch"

CHEATS = [
    # -- 1. torch math through operators, slice stores and tensor methods in host code -------------
    _cheat("copy_ of x * 2", "tilelang", "tensor arithmetic `x * 2` in host code", "    out.copy_(x * 2)\n"),
    _cheat("copy_ of x * 2", "ninetoothed", "tensor arithmetic `x * 2` in host code", "    out.copy_(x * 2)\n"),
    _cheat("a half times the table", "tilelang", "`x[..., :half] * cos`", "    y = x[..., :half] * cos\n"),
    _cheat("a half times the table", "ninetoothed", "`x[..., :half] * cos`", "    y = x[..., :half] * cos\n"),
    _cheat(
        "slice store of the rotation",
        "tilelang",
        "slice store into `out[..., :half]`",
        "    x1 = x[..., :half]\n    c = cos[None, :, None, :]\n    out[..., :half] = x1 * c\n",
    ),
    _cheat(
        "slice store of the rotation",
        "ninetoothed",
        "slice store into `out[..., :half]`",
        "    x1, x2 = x.chunk(2, -1)\n    out[..., :half] = x1 * cos_view.unsqueeze(2)\n",
    ),
    _cheat("augmented out += x", "tilelang", "augmented assignment `out += x`", "    out += x\n"),
    _cheat("augmented out += x", "ninetoothed", "augmented assignment `out += x`", "    out += x\n"),
    _cheat("matmul operator", "tilelang", "tensor arithmetic `x @ w`", "    w = sin.view(-1, half)\n    y = x @ w\n"),
    _cheat(
        "matmul operator", "ninetoothed", "tensor arithmetic `x @ w`", "    w = sin_view.flatten()\n    y = x @ w\n"
    ),
    _cheat("unary minus", "tilelang", "`-x.flatten()`", "    y = -x.flatten()\n"),
    _cheat("a view of x stays x", "ninetoothed", "`rows * 2`", "    rows = x.view(-1, head_dim)\n    y = rows * 2\n"),
    _cheat(
        "math in a helper of the file",
        "tilelang",
        "(_rotate(), called with the op's tensors)",
        "    _rotate(x, out)\n",
        helpers="def _rotate(a, o):\n    o[...] = a * 2\n",
    ),
    _cheat(
        "math in a nested function",
        "ninetoothed",
        "tensor arithmetic `t * 2`",
        "    def twice(t):\n        return t * 2\n\n    y = twice(x)\n",
    ),
    _cheat(
        "math in a lambda", "tilelang", "tensor arithmetic `t + t`", "    twice = lambda t: t + t\n    y = twice(x)\n"
    ),
    _cheat("tensor math method", "tilelang", ".pow()", "    y = x.float().pow(2)\n"),
    _cheat("in-place tensor method", "ninetoothed", "calls out.mul_()", "    out.mul_(2)\n"),
    _cheat("set_ swaps the storage", "tilelang", "calls out.set_()", "    out.set_(x)\n"),
    _cheat("builtin sum of tensors", "ninetoothed", "calls sum() on the op's tensors", "    y = sum([x, x])\n"),
    _cheat("operator module", "tilelang", "calls operator.mul()", "    y = operator.mul(x, 2)\n", "import operator"),
    _cheat("torch function", "ninetoothed", "calls torch.cat()", "    out.copy_(torch.cat((x, x), -1))\n"),
    _cheat("F.rms_norm", "tilelang", "rms_norm()", "    y = torch.nn.functional.rms_norm(x, (head_dim,))\n"),
    # -- 2. below torch's API, and torch's own compilers --------------------------------------------
    _cheat(
        "torch.ops.aten", "tilelang", "calls torch.ops.aten.mul.out()", "    torch.ops.aten.mul.out(x, 2, out=out)\n"
    ),
    _cheat(
        "torch.ops by import", "ninetoothed", "imports torch.ops", "    y = ops.aten.neg(x)\n", "from torch import ops"
    ),
    _cheat("torch.compile", "ninetoothed", "calls torch.compile()", "    y = torch.compile(torch.neg)(x)\n"),
    _cheat("torch.jit", "tilelang", "torch.jit.script", "    f = torch.jit.script(_kernel)\n"),
    _cheat("torch._C", "ninetoothed", "torch._C._nn", "    y = torch._C._nn.gelu(x)\n"),
    _cheat("torch._dynamo", "tilelang", "imports torch._dynamo", imports="import torch._dynamo"),
    _cheat("torch._inductor", "ninetoothed", "uses torch._inductor.config", "    cfg = torch._inductor.config\n"),
    _cheat("torch.library", "tilelang", "imports torch.library", imports="from torch.library import Library"),
    # -- 3. torch under another name -------------------------------------------------------------------
    _cheat(
        "import torch as T", "tilelang", "calls T.cat() (torch.cat)", "    y = T.cat((x, x), -1)\n", "import torch as T"
    ),
    _cheat(
        "import torch as T", "ninetoothed", "calls T.cat() (torch.cat)", "    y = T.cat((x, x))\n", "import torch as T"
    ),
    _cheat(
        "from torch import cat as glue",
        "tilelang",
        "imports torch.cat",
        "    y = glue((x, x))\n",
        "from torch import cat as glue",
    ),
    _cheat(
        "glue() is torch.cat",
        "ninetoothed",
        "calls glue() (torch.cat)",
        "    y = glue((x, x))\n",
        "from torch import cat as glue",
    ),
    _cheat(
        "functional as G", "tilelang", "imports torch.nn", "    y = G.silu(x)\n", "from torch.nn import functional as G"
    ),
    _cheat(
        "G.silu is torch",
        "ninetoothed",
        "calls G.silu() (torch.nn.functional.silu)",
        "    y = G.silu(x)\n",
        "from torch.nn import functional as G",
    ),
    _cheat(
        "functional as anything",
        "ninetoothed",
        "imports torch.nn.functional",
        imports="import torch.nn.functional as anything",
    ),
    _cheat("torch by assignment", "tilelang", "calls U.cat() (torch.cat)", "    U = torch\n    y = U.cat((x, x))\n"),
    _cheat(
        "star import from torch",
        "ninetoothed",
        "star import from torch",
        "    y = cat((x, x))\n",
        "from torch import *",
    ),
    # -- 4. builtins and dunders -------------------------------------------------------------------------
    _cheat("__builtins__ subscript", "tilelang", "uses __builtins__", '    __builtins__["exec"]("pass")\n'),
    _cheat("__builtins__ attribute", "ninetoothed", "uses __builtins__", '    __builtins__.exec("pass")\n'),
    _cheat(
        "__dict__ of the spec", "tilelang", ".__dict__ (SPEC.__dict__)", '    f = SPEC.__dict__["refer" + "ence"]\n'
    ),
    _cheat(
        "__subclasses__ walk",
        "ninetoothed",
        ".__subclasses__",
        "    kinds = ().__class__.__mro__[1].__subclasses__()\n",
    ),
    _cheat("__globals__ of a function", "tilelang", ".__globals__", "    g = _kernel.__globals__\n"),
    _cheat("__code__ of a function", "ninetoothed", ".__code__", "    c = _kernel.__code__\n"),
    _cheat("__closure__", "tilelang", ".__closure__", "    cells = build.__closure__\n"),
    _cheat("__getattribute__", "ninetoothed", ".__getattribute__", '    f = SPEC.__getattribute__("check_inputs")\n'),
    _cheat("__loader__", "tilelang", "uses __loader__", "    loader = __loader__\n"),
    _cheat("explicit __mul__", "ninetoothed", "explicit dunder operator calls", "    y = x.__mul__(2)\n"),
    _cheat("explicit __setitem__", "tilelang", ".__setitem__", "    out.__setitem__(Ellipsis, x)\n"),
    # -- 5. payloads ---------------------------------------------------------------------------------------
    _cheat("base64", "tilelang", "imports base64", imports="import base64"),
    _cheat("binascii", "ninetoothed", "imports binascii", imports="import binascii"),
    _cheat("codecs", "tilelang", "imports codecs", imports="import codecs"),
    _cheat("marshal", "ninetoothed", "imports marshal", imports="import marshal"),
    _cheat("pickle", "tilelang", "imports pickle", imports="import pickle"),
    _cheat("zlib", "ninetoothed", "imports zlib", imports="from zlib import decompress"),
    _cheat("lzma", "tilelang", "imports lzma", imports="import lzma"),
    _cheat("bz2", "ninetoothed", "imports bz2", imports="import bz2"),
    _cheat("types", "tilelang", "imports types", imports="from types import FunctionType"),
    _cheat("runpy", "ninetoothed", "imports runpy", imports="import runpy"),
    _cheat("pkgutil", "tilelang", "imports pkgutil", imports="import pkgutil"),
    _cheat("zipimport", "ninetoothed", "imports zipimport", imports="import zipimport"),
    _cheat("exec", "tilelang", "uses exec()", '    exec("y = x")\n'),
    _cheat("eval", "ninetoothed", "uses eval()", '    y = eval("x")\n'),
    _cheat("compile", "tilelang", "uses compile()", '    code = compile("pass", "<x>", "exec")\n'),
    _cheat("vars", "ninetoothed", "uses vars()", "    fields = vars(SPEC)\n"),
    _cheat("globals", "tilelang", "uses globals()", "    g = globals()\n"),
    _cheat("locals", "ninetoothed", "uses locals()", "    names = locals()\n"),
    # -- 6. evaluation-aware code and the harness -----------------------------------------------------------
    _cheat(
        "sys.argv",
        "tilelang",
        ".argv (sys.argv)",
        '    if "--benchmark" in sys.argv:\n        return out\n',
        "import sys",
    ),
    _cheat(
        "sys.modules", "ninetoothed", ".modules (sys.modules)", '    judge = sys.modules["__main__"]\n', "import sys"
    ),
    _cheat("sys.modules by import", "tilelang", "imports sys.modules", imports="from sys import modules"),
    _cheat("sys._getframe", "ninetoothed", "_getframe", "    caller = sys._getframe(1).f_locals\n", "import sys"),
    _cheat("sys.settrace", "tilelang", ".settrace", "    sys.settrace(None)\n", "import sys"),
    _cheat("sys.setprofile", "ninetoothed", ".setprofile", "    sys.setprofile(None)\n", "import sys"),
    _cheat(
        "exc_info frames",
        "tilelang",
        ".tb_frame",
        "    try:\n        raise ValueError\n    except ValueError:\n        frame = sys.exc_info()[2].tb_frame\n",
        "import sys",
    ),
    _cheat("f_back", "ninetoothed", ".f_back", "    def probe():\n        return probe.frame.f_back\n"),
    _cheat("f_globals", "tilelang", ".f_globals", "    g = out.f_globals\n"),
    _cheat("generator frame", "ninetoothed", ".gi_frame", "    gen = (i for i in range(1))\n    f = gen.gi_frame\n"),
    _cheat("coroutine frame", "tilelang", ".cr_frame", "    f = out.cr_frame\n"),
    _cheat("import __main__", "ninetoothed", "imports __main__", imports="import __main__"),
    _cheat("inspect", "tilelang", "imports inspect", imports="import inspect"),
    _cheat("traceback", "ninetoothed", "imports traceback", imports="import traceback"),
    _cheat("gc", "tilelang", "imports gc", imports="import gc"),
    _cheat(
        "another env var",
        "tilelang",
        "reads os.environ.get('HOME')",
        '    home = os.environ.get("HOME")\n',
        "import os",
    ),
    _cheat("getenv of another name", "ninetoothed", "calls os.getenv()", '    mode = os.getenv("KW_EVAL_MODE")\n'),
    _cheat(
        "env by a variable",
        "tilelang",
        "reads os.environ[name]",
        '    name = "TRITON_INTERPRET"\n    v = os.environ[name]\n',
        "import os",
    ),
    _cheat("env iterated", "ninetoothed", "may read only TRITON_INTERPRET", "    keys = [k for k in os.environ]\n"),
    _cheat("env copied", "tilelang", "reads os.environ", "    env = dict(os.environ)\n", "import os"),
    _cheat("env items", "ninetoothed", "reads os.environ.items()", "    env = os.environ.items()\n"),
    _cheat(
        "env written",
        "tilelang",
        "may read the environment, not change it",
        '    os.environ.update(A="1")\n',
        "import os",
    ),
    _cheat("env patched", "ninetoothed", "may not patch torch, sys, os", '    os.environ["TRITON_INTERPRET"] = "0"\n'),
    _cheat("the evaluator", "ninetoothed", "imports tools.evaluator", imports="from tools.evaluator import judge"),
    _cheat("import tools", "tilelang", "imports tools", imports="import tools"),
    _cheat(
        "the registry",
        "tilelang",
        "imports workbench.kernels.registry",
        imports="from workbench.kernels import registry",
    ),
    _cheat("threading", "ninetoothed", "imports threading", imports="import threading"),
    _cheat("multiprocessing", "tilelang", "imports multiprocessing", imports="import multiprocessing"),
    _cheat("subprocess", "ninetoothed", "imports subprocess", imports="import subprocess"),
    _cheat("socket", "tilelang", "imports socket", imports="import socket"),
    _cheat("ctypes", "ninetoothed", "imports ctypes", imports="import ctypes"),
    _cheat("signal", "tilelang", "imports signal", imports="import signal"),
    _cheat("os.fork", "ninetoothed", ".fork (os.fork)", "    pid = os.fork()\n"),
    _cheat("os.setsid", "tilelang", ".setsid (os.setsid)", "    os.setsid()\n", "import os"),
    _cheat("os.kill", "ninetoothed", ".kill (os.kill)", "    os.kill(os.getpid(), 9)\n"),
    _cheat("os.system", "tilelang", ".system (os.system)", '    os.system("nvidia-smi")\n', "import os"),
    _cheat("os.execv", "ninetoothed", "uses os.execv", '    os.execv("/bin/true", ["true"])\n'),
    _cheat("os.spawnl", "tilelang", "uses os.spawnl", '    os.spawnl(os.P_WAIT, "/bin/true")\n', "import os"),
    _cheat("os.popen", "ninetoothed", ".popen (os.popen)", '    os.popen("ls")\n'),
    _cheat("open", "tilelang", "uses open()", '    saved = open("/tmp/expected.pt", "rb")\n'),
    _cheat(
        "Path.write_bytes",
        "tilelang",
        "write_bytes()",
        '    pathlib.Path("/tmp/c.pt").write_bytes(b"")\n',
        "import pathlib",
    ),
    _cheat(
        "Path.read_text by name",
        "ninetoothed",
        "calls saved.read_text()",
        '    saved = pathlib.Path("/tmp") / "o.txt"\n    t = saved.read_text()\n',
    ),
    _cheat(
        "Path.open",
        "tilelang",
        "calls Path('/tmp/o.pt').open()",
        '    f = Path("/tmp/o.pt").open("wb")\n',
        "from pathlib import Path",
    ),
    (
        "generated_source may read, not write",
        "ninetoothed",
        kernel_file("ninetoothed").replace(".read_text()", '.write_text("")'),
        "write_text()",
    ),
    # -- the reference and the rest -------------------------------------------------------------------------
    _cheat("the reference", "tilelang", "may not use the reference", "    y = SPEC.reference(x, sin, cos)\n"),
    _cheat("the expected output", "ninetoothed", ".expected", "    y = SPEC.expected((x, sin, cos), x.dtype)\n"),
    _cheat(
        "the reference by import",
        "ninetoothed",
        "may not use the reference",
        imports="from workbench.kernels.rope.spec import reference",
    ),
    _cheat("the spec's comparison", "tilelang", ".compare", "    SPEC.compare(out, (x, sin, cos), x.dtype)\n"),
    _cheat(
        "the spec's fields",
        "ninetoothed",
        "dataclasses.asdict()",
        "    f = dataclasses.asdict(SPEC)\n",
        "import dataclasses",
    ),
    _cheat("getattr", "tilelang", "calls getattr()", '    f = getattr(torch, "ca" + "t")\n'),
    _cheat(
        "catch-all except",
        "ninetoothed",
        "catch-all `except Exception:`",
        "    try:\n        pass\n    except Exception:\n        pass\n",
    ),
    _cheat("bare except", "tilelang", "catch-all `except:`", "    try:\n        pass\n    except:\n        pass\n"),
    _cheat("a stream", "ninetoothed", ".Stream", "    side = torch.cuda.Stream()\n"),
    _cheat("patching torch", "tilelang", "may not patch torch", "    torch.cuda.synchronize = lambda: None\n"),
]

# Honest files: method calls on names that are not the op's tensors (a set, a list, a dict, a cache) are fine.
HONEST_HELPERS = """
_seen: set[tuple] = set()
_order: list[tuple] = []
_stats: dict[str, int] = {}


def _remember(key: tuple) -> None:
    if key not in _seen:
        _seen.add(key)
        _order.append(key)
    _stats.update(calls=_stats.get("calls", 0) + 1)
    if len(_order) > 8:
        _kernels.pop(_order.pop(0), None)
        _seen.discard(key)
"""
HONEST_BODY = """    key = (x.shape[-1], x.dtype)
    _remember(key)
    local = {}
    local.update(rows=x.numel() // head_dim, tokens=batch * seq)
    names = []
    names.append(str(x.dtype))
    names.extend(["a", "b"])
    sizes = [x.size(-1) * 2, len(x) + 1, x.stride(0) // 2, x.dim() - 1, -x.shape[0]]
    aligned = x.data_ptr() % 16 == 0 and x.is_contiguous()
    flag = os.environ.get("TRITON_INTERPRET", "0") == "1" or os.getenv("KW_TILELANG_TARGET") == "c"
    flag = flag or "TRITON_INTERPRET" in os.environ
    label = "%s:%d" % (x.dtype, head_dim)
    out.zero_() if False else None
"""
HONEST = {
    "tilelang": kernel_file("tilelang", HONEST_BODY, imports="import os", helpers=HONEST_HELPERS),
    "ninetoothed": kernel_file("ninetoothed", HONEST_BODY, helpers=HONEST_HELPERS),
}

# A Triton-style file: the kernel's arithmetic is in a @triton.jit function, the host only launches it.
TRITON_STYLE = """
import torch
import triton
import triton.language as tl


@triton.jit
def _rope_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (v * 2.0 - v).to(tl.bfloat16), mask=mask)


def rope(x, sin, cos, *, out=None):
    if out is None:
        out = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"] * 2),)  # noqa: E731
    _rope_kernel[grid](x, out, n, BLOCK=1024)
    return out
"""

# The torch backend: torch math and operators are its job...
TORCH_GOOD = """
import torch


def rope(x, sin, cos, *, out=None):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[: x.shape[1], None, :].float(), cos[: x.shape[1], None, :].float()  # first seq rows
    result = torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)
    if out is None:
        out = torch.empty_like(x)
    out[...] = result
    out += 0
    out.copy_(-(-result))
    return out
"""


def torch_file(body: str, imports: str = "") -> str:
    return TORCH_GOOD.replace("import torch\n", f"import torch\n{imports}\n", 1).replace(
        "    return out\n", body + "    return out\n", 1
    )


# ...but not the operator registry, the builtins, the harness, the reference or other env vars.
TORCH_CHEATS = [
    ("torch.ops", torch_file("    torch.ops.aten.mul.out(x, 2, out=out)\n"), "torch.ops.aten.mul.out()"),
    ("torch.library", torch_file("", "from torch.library import Library"), "imports torch.library"),
    ("__builtins__", torch_file('    __builtins__["exec"]("pass")\n'), "uses __builtins__"),
    ("sys.modules", torch_file("    judge = sys.modules['__main__']\n", "import sys"), ".modules (sys.modules)"),
    (
        "the reference",
        torch_file("    y = SPEC.reference(x, sin, cos)\n", "from workbench.kernels.rope.spec import SPEC"),
        ".reference",
    ),
    (
        "reference import",
        torch_file("", "from workbench.kernels.rope.spec import reference"),
        "may not use the reference",
    ),
    ("env var", torch_file("    seeds = os.environ['KW_SEEDS']\n", "import os"), "reads os.environ['KW_SEEDS']"),
    ("getenv", torch_file("    seeds = os.getenv('KW_SEEDS')\n", "import os"), "calls os.getenv()"),
]
