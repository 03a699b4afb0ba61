"""Candidates that cheat, for each single-output op: each must be rejected at the right stage, with a reason.

Static cases are checked as kernel-backend files (tilelang), where torch math and
harness access are refused before anything runs. Run-time cases are torch-backend
files so they run on the CPU; each honest part is the op's real math, and the
cheat is the one thing added.
"""

from __future__ import annotations

from dataclasses import dataclass

GOOD = {
    "rope": """
import torch


def rope(x, sin, cos, *, out=None):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[None, :, None, :], cos[None, :, None, :]
    result = torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)
    if out is None:
        out = torch.empty_like(x)
    out.copy_(result)
    return out
""",
    "rms_norm": """
import torch


def rms_norm(x, weight, eps, *, out=None):
    xf = x.float()
    result = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()
    if out is None:
        out = torch.empty_like(x)
    out.copy_(result)
    return out
""",
    "silu_mul": """
import torch


def silu_mul(x, *, out=None):
    half = x.shape[-1] // 2
    gate, up = x[..., :half].float(), x[..., half:].float()
    result = gate * torch.sigmoid(gate) * up
    if out is None:
        out = torch.empty_like(x[..., :half])
    out.copy_(result)
    return out
""",
}
SIGNATURE = {
    "rope": "def rope(x, sin, cos, *, out=None):\n",
    "rms_norm": "def rms_norm(x, weight, eps, *, out=None):\n",
    "silu_mul": "def silu_mul(x, *, out=None):\n",
}


@dataclass(frozen=True)
class Cheat:
    name: str
    stage: str  # where it must be stopped
    reason: str  # a fragment of the message a person reads
    before: str = ""  # code at the start of the op function
    after: str = ""  # code just before `return out`
    header: str = ""  # module-level code after the imports
    backend: str = "torch"
    dtype: str = "bf16"

    def source(self, op: str) -> str:
        text = GOOD[op].replace("import torch\n", f"import torch\n{self.header.replace('{op}', op)}\n", 1)
        # `after` first: the only `return out` is then the honest one at the end.
        text = text.replace("    return out\n", self.after.replace("{op}", op) + "    return out\n", 1)
        return text.replace(SIGNATURE[op], SIGNATURE[op] + self.before.replace("{op}", op), 1)


CHEATS = [
    # -- refused before running (as a tilelang kernel file) -----------------------------------------
    Cheat(
        "calls the reference",
        "static",
        "may not use the reference",
        header="from kernels.{op}.spec import reference",
        backend="tilelang",
    ),
    Cheat("calls torch for the math", "static", "must run in the kernel, not torch", backend="tilelang"),
    Cheat(
        "calls F.rms_norm",
        "static",
        "rms_norm()",
        before="    y = torch.nn.functional.rms_norm(x.float(), (x.shape[-1],))\n",
        backend="tilelang",
    ),
    Cheat("works on another stream", "static", ".Stream", before="    side = torch.cuda.Stream()\n", backend="torch"),
    Cheat("works on a thread", "static", "imports threading", header="import threading", backend="torch"),
    Cheat(
        "patches torch.allclose",
        "static",
        "may not patch torch",
        header="torch.allclose = lambda *a, **k: True",
        backend="torch",
    ),
    Cheat(
        "patches the harness",
        "static",
        "imports tools",
        header="import tools.worker\ntools.worker.ROOFLINE_SLACK = 1e9",
        backend="torch",
    ),
    Cheat(
        "reads the harness's frame",
        "static",
        "_getframe",
        header="import sys",
        before="    caller = sys._getframe(1).f_locals\n",
        backend="torch",
    ),
    Cheat(
        "reads expected outputs from disk",
        "static",
        "uses open",
        before="    saved = open('/tmp/expected.pt', 'rb')\n",
        backend="torch",
    ),
    Cheat(
        "hides a fallback",
        "static",
        "catch-all",
        before="    try:\n        pass\n    except Exception:\n        pass\n",
        backend="torch",
    ),
    # -- caught at run time ------------------------------------------------------------------------
    Cheat("returns the input", "correctness", "out of tolerance", after="    out.copy_(x[..., : out.shape[-1]])\n"),
    Cheat("returns zeros", "correctness", "out of tolerance", after="    out.zero_()\n"),
    Cheat("returns a constant", "correctness", "out of tolerance", after="    out.fill_(0.5)\n"),
    Cheat(
        "writes only half the output",
        "correctness",
        "NaN/Inf in output",
        before="    incoming = out.clone()\n",
        after="    out.view(-1)[out.numel() // 2:] = incoming.view(-1)[out.numel() // 2:]\n",
    ),
    Cheat(
        "remembers outputs by shape",
        "correctness",
        "out of tolerance",
        header="_seen = {}",
        before="    if tuple(x.shape) in _seen:\n        out.copy_(_seen[tuple(x.shape)])\n        return out\n",
        after="    _seen[tuple(x.shape)] = out.clone()\n",
    ),
    Cheat(
        "remembers the last output and returns it next time",
        "correctness",
        "out of tolerance",
        header="_last = {}",
        before="    if _last.get('y') is not None and _last['y'].shape == out.shape:\n"
        "        stale = _last['y']\n        _last['y'] = None\n        out.copy_(stale)\n        return out\n",
        after="    _last['y'] = out.clone()\n",
    ),
    Cheat(
        "is right only on the prompt's token counts",
        "correctness",
        "hidden/",
        after="    tokens = x.shape[1 if '{op}' == 'rope' else 0]\n"
        "    if tokens not in (1, 8, 32, 128, 512, 2048, 8192, 16384, 32768):\n"
        "        out.mul_(1.5)\n",
    ),
    Cheat(
        "computes in bf16 when fp32 is asked for",
        "correctness",
        "out of tolerance",
        after="    out.copy_(out.to(torch.bfloat16))\n",
        dtype="fp32",
    ),
    Cheat("mutates its input", "correctness", "modified its inputs", after="    x.mul_(2)\n"),
    Cheat(
        "returns a new tensor instead of out",
        "correctness",
        "did not return the `out` buffer",
        after="    return out.clone()\n",
    ),
    Cheat(
        "skips the work once its output looks done",
        "benchmark",
        "wrong_after_timing",
        header="_done = set()",
        before="    if out.data_ptr() in _done and not torch.isnan(out).any():\n        return out\n",
        after="    _done.add(out.data_ptr())\n",
    ),
]
