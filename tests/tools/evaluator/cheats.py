"""Cheating candidates, by the threat they try, and where the judge must stop each (the harness's own tests).

Each cheat is code added to an honest candidate: a torch-backend file (it runs on the CPU; its
honest part is the op's real math) or, for the GPU forms, a shipped TileLang or NineToothed kernel
file. The threats (the judge issue's classes):

1. change the harness from inside: its comparison, statistics or settings, reached through
   patches, `sys.modules`, `__main__`, `gc` or the stack;
2. work not done in the timed calls: calls skipped, outputs replayed, work deferred (threads, lazy
   tensors, hooks, a side stream the answer does not wait for);
3. slow the yardsticks: work left running for the next contestant's turn;
4. evaluation-aware code: honest only where it sees the harness (module names, argv, environment,
   `__main__`), raising elsewhere as it would in a user's model;
6. coverage gaps: wrong only on prompts longer than the named ones, on rows of zeros or of large
   magnitudes, past 32767 positions, on rows wider than 8192, in a dtype the run did not time, or
   biased within the tolerance;
7. one call doing other calls' work: a launch over the next sets of a batch, the other calls returning
   at once (in the eager scope, only while a CUDA graph is captured, or both), or a kernel that follows
   the chain of calls and does several of them in one launch (caught by the copy bound, GPU only);
8. honest only on the judge's buffers (their storage gives them away), computing nothing in a model;
9. exact only on the timed inputs: a shortcut right where the chained input is a fixed point of the op
   (rms_norm's output fed back whole, weights of +-1, was one), or the chain's closed form over many calls;
and plain wrong results (threat 0 here). Static-check bypasses (threat 5) are lint cases, in
tests/tools/evaluator/lint_cheats.py.

`stage`/`reason`: where the judge rejects the cheat with the lint off (the boundary must hold where
the lint misses); "decide" means it was measured honestly and is not faster than the honest
incumbent (a timing: checked on the GPU; the CPU form checks that the judge's figures stayed its own).
`lint`: a fragment of the static check's refusal, where the lint sees the cheat.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tools.paths import PROJECT_ROOT

GOOD = {
    "rope": """
import torch


def rope(x, sin, cos, *, out=None):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[: x.shape[1], None, :].float(), cos[: x.shape[1], None, :].float()  # first seq rows
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
# The op called on `_xj` with out=`_oj` and the call's other arguments (cheats that call it themselves).
CALL = {
    "rope": "rope(_xj, sin, cos, out=_oj)",
    "rms_norm": "rms_norm(_xj, weight, eps, out=_oj)",
    "silu_mul": "silu_mul(_xj, out=_oj)",
}
SIGNATURE = {op: next(line for line in src.splitlines() if line.startswith("def ")) + "\n" for op, src in GOOD.items()}
OPS = tuple(GOOD)


@dataclass(frozen=True)
class Cheat:
    name: str
    threat: int
    stage: str  # where the judge stops it with the lint off
    reason: str | tuple[str, ...]  # a fragment of the record's message then (one of these, where it races)
    lint: str | None = None  # a fragment of the lint's refusal, when the lint sees it
    header: str = ""  # module-level code after `import torch`
    before: str = ""  # at the start of the op function
    after: str = ""  # just before its final `return out`
    ops: tuple[str, ...] = ("rope",)
    dtype: str = "bf16"
    gpu_only: bool = False
    kernel_forms: bool = False  # also injected into the shipped TileLang and NineToothed files (GPU)
    batches: int = 3  # rounds per shape it is evaluated with

    @property
    def reasons(self) -> tuple[str, ...]:
        return (self.reason,) if isinstance(self.reason, str) else self.reason

    def explains(self, message: str) -> bool:
        """Whether `message` gives one of the reasons this cheat is expected to be stopped for."""
        return any(reason in message for reason in self.reasons)

    def source(self, op: str, base: str | None = None) -> str:
        """The cheat in `base` (default: the honest torch-backend file of `op`); `@CALL@` is the op on (_xj, _oj)."""
        text = GOOD[op] if base is None else base
        signature = SIGNATURE[op] if base is None else _signature(base, op)
        text = text.replace("import torch\n", f"import torch\n{self.header}\n", 1)
        start = text.index(signature) + len(signature)
        body, rest = text[:start], text[start:]
        end = rest.index("\n    return out\n") + 1
        rest = rest[:end] + self.after + rest[end:]
        return (body + self.before + rest).replace("@CALL@", CALL[op])

    def kernel_source(self, op: str, backend: str) -> str:
        return self.source(op, (PROJECT_ROOT / "kernels" / op / f"{backend}.py").read_text())


def _signature(text: str, op: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith(f"def {op}("))
    if not line.rstrip().endswith(":"):
        raise ValueError(f"{op}'s signature spans lines in this file; cheats need it on one")
    return line + "\n"


TOKENS = "x.shape[0] * x.shape[1] if x.dim() == 4 else x.shape[0]"  # rope: batch * seq; the others: rows


def fusion(sets: int, when: str) -> tuple[str, str]:
    """(header, before) of a cheat that does the work of `sets` calls (0: every set of the batch) in one.

    Once past the first checks (its first 300 calls: the correctness stage's sets each have tables and
    weights of their own) and in the timed dtype, it finds the next calls' tensors from the pointers of
    two calls in a row (the sets of a batch sit at one stride), calls the op over them at once (one
    launch over the sets gathered, its results scattered back; silu_mul, whose output is half its input,
    one call per set in order) and returns at once from the calls whose work is done. `when`:
    "eager" (not while a CUDA graph is captured), "capture" (only then: the graph holds one launch for
    many calls) or "both". Without the judge's chaining it is accepted (tests/tools/evaluator/
    test_adversarial.py checks that it would be).
    """
    condition = {"eager": "not _capturing(x)", "capture": "_capturing(x)", "both": "True"}[when]
    header = (
        "_fused = {'last': None, 'done': [], 'inside': False, 'step': None, 'index': 0, 'sets': 0, 'calls': 0}\n"
        "def _capturing(t):\n    return t.is_cuda and torch.cuda.is_current_stream_capturing()"
    )
    before = f"""    if not _fused['inside']:
        here = (x.data_ptr(), out.data_ptr())
        last, _fused['last'] = _fused['last'], here
        _fused['calls'] += 1
        moved = None if last is None else (here[0] - last[0], here[1] - last[1])
        if moved is not None and 0 < moved[0] < 2**31 and 0 < moved[1] < 2**31 and moved == _fused.get('moved'):
            _fused['step'] = moved  # the sets' stride: the same move between three calls in a row
        _fused['moved'] = moved
        if moved is not None and moved == _fused['step']:
            _fused['index'] += 1  # the next set of one batch
        else:
            _fused['sets'] = max(_fused['sets'], _fused['index'] + 1)  # a batch's first call: the last had this many
            _fused['index'] = 0
        if _fused['done'] and here == _fused['done'][0]:  # this call's work was done by an earlier one
            _fused['done'].pop(0)
            return out
        _fused['done'] = []
        k = {sets} or (_fused['sets'] if _fused['index'] == 0 else 0)
        timed = _fused['step'] is not None and _fused['calls'] > 300 and x.dtype == torch.bfloat16
        if timed and k > 1 and {condition}:
            sx, so = _fused['step'][0] // x.element_size(), _fused['step'][1] // out.element_size()
            try:  # views past the buffer's end (the last calls of a batch, or unrelated buffers) raise
                xs = torch.as_strided(x, (k, *x.shape), (sx, *x.stride()), x.storage_offset())
                outs = torch.as_strided(out, (k, *out.shape), (so, *out.stride()), out.storage_offset())
            except RuntimeError:
                xs = None
            if xs is not None:
                _fused['inside'] = True
                try:
                    if out.numel() == x.numel():  # one launch over all k sets: gathered, then scattered back
                        _xj, _oj = xs.reshape(-1, *x.shape[1:]), torch.empty_like(outs).reshape(-1, *out.shape[1:])
                        @CALL@
                        outs.copy_(_oj.view(outs.shape))
                    else:
                        for j in range(k):
                            _xj, _oj = xs[j], outs[j]
                            @CALL@
                finally:
                    _fused['inside'] = False
                step = _fused['step']
                _fused['done'] = [(here[0] + j * step[0], here[1] + j * step[1]) for j in range(1, k)]
                return out
"""
    return header, before


# Where a fusing cheat is stopped: the calls after its launch find their inputs not yet written (chained).
FUSION_REASONS = ("unwritten (NaN-poisoned)", "of a timed batch is wrong", "raised in a timed batch")

CHEATS = [
    # -- 0: plainly wrong --------------------------------------------------------------------------
    Cheat("returns zeros", 0, "correctness", "out of tolerance", after="    out.zero_()\n", ops=OPS),
    Cheat(
        "writes only half the output",
        0,
        "correctness",
        "NaN/Inf in output",
        before="    incoming = out.clone()\n",
        after="    out.view(-1)[out.numel() // 2:] = incoming.view(-1)[out.numel() // 2:]\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "returns a new tensor instead of out",
        0,
        "correctness",
        "did not return the `out` buffer",
        after="    return out.clone()\n",
        ops=("silu_mul",),
    ),
    Cheat(
        "computes in bf16 when fp32 is asked for",
        0,
        "correctness",
        "out of tolerance",
        after="    out.copy_(out.to(torch.bfloat16))\n",
        dtype="fp32",
        ops=("rope",),
    ),
    # -- 1: changing the harness from inside ---------------------------------------------------------
    Cheat(
        "patches torch's comparisons",
        1,
        "correctness",
        "out of tolerance",
        lint="may not patch torch",
        header="torch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a, **k: True\n"
        "torch.isnan = lambda t: torch.zeros_like(t, dtype=torch.bool)",
        after="    out.zero_()\n",
        ops=OPS,
    ),
    Cheat(
        "patches every compare() it finds in sys.modules",
        1,
        "correctness",
        "out of tolerance",
        lint="sys.modules",
        header="import sys",
        before="    for m in list(sys.modules.values()):\n"
        "        if hasattr(m, 'compare'):\n"
        "            setattr(m, 'compare', lambda *a, **k: None)\n",
        after="    out.zero_()\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "rewrites the harness's settings through __main__",
        1,
        "correctness",
        "out of tolerance",
        lint="__main__",
        header="import __main__",
        before="    __main__.ROOFLINE_SLACK = 1e9\n    __main__.VERIFY_CALLS = 0\n    __main__.QUIET_FACTOR = 1e9\n",
        after="    out.fill_(0.5)\n",
        ops=("silu_mul",),
    ),
    Cheat(
        "walks gc for the harness's objects",
        1,
        "correctness",
        "out of tolerance",
        lint="gc",
        header="import gc",
        before="    for o in gc.get_objects():\n"
        "        if type(o).__name__ in ('Judge', 'Server', 'Plan') and hasattr(o, '__dict__'):\n"
        "            o.__dict__['verified'] = True\n",
        after="    out.zero_()\n",
    ),
    Cheat(
        "rewrites its caller's frame",
        1,
        "correctness",
        "out of tolerance",
        lint="_getframe",
        header="import sys",
        before="    frame = sys._getframe(1)\n    frame.f_locals['returned'] = True\n",
        after="    out.zero_()\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "patches the statistics module the timing might use",
        1,
        "decide",
        "noise",
        header="import statistics\nstatistics.median = lambda values: 1e-9\nstatistics.fmean = lambda values: 1e-9",
    ),
    # -- 2: work not done in the timed calls ---------------------------------------------------------
    # "Once past the first checks": the correctness stage calls an op about 125 times on CPU, the
    # benchmark about 1000; 400 lies between with room on both sides.
    Cheat(
        "skips every third call once it has been called often",
        2,
        "benchmark",
        "unwritten (NaN-poisoned)",
        header="_calls = [0]",
        before="    _calls[0] += 1\n    if _calls[0] > 400 and _calls[0] % 3 == 0:\n        return out\n",
        ops=OPS,
        kernel_forms=True,
    ),
    Cheat(
        "replays the output it computed for the same buffers, once past the first checks",
        2,
        "benchmark",
        "of a timed batch is wrong",
        header="_memo = {}\n_calls = [0]",
        before="    key = (x.data_ptr(), out.data_ptr())\n    _calls[0] += 1\n"
        "    if _calls[0] > 400 and key in _memo:\n        out.copy_(_memo[key])\n        return out\n",
        after="    _memo[(x.data_ptr(), out.data_ptr())] = out.clone()\n",
        ops=("rope", "silu_mul"),
    ),
    Cheat(
        "is wrong on one call in 20 once past the first checks",
        2,
        "benchmark",
        "of a timed batch is wrong",
        header="_calls = [0]",
        after="    _calls[0] += 1\n    if _calls[0] > 400 and _calls[0] % 20 == 0:\n        out.mul_(1.5)\n",
        ops=("rope", "rms_norm"),
        batches=6,  # 16 calls sampled per batch: (19/20)^16 misses a batch 44% of the time, 6 rounds do not
        kernel_forms=True,
    ),
    Cheat(
        "remembers outputs by shape",
        2,
        "correctness",
        "out of tolerance",
        header="_seen = {}",
        before="    if tuple(x.shape) in _seen:\n        out.copy_(_seen[tuple(x.shape)])\n        return out\n",
        after="    _seen[tuple(x.shape)] = out.clone()\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "leaves the work to a thread that finishes after the answer",
        2,
        "correctness",
        # The late write lands in the unfilled output, or in memory the runner has already let go of.
        ("NaN/Inf in output", "killed by SIGSEGV"),
        lint="threading",
        header="import threading\nimport time",
        before="    threading.Thread(target=_later, args=(x, sin, cos, out), daemon=True).start()\n    return out\n\n\n"
        "def _later(x, sin, cos, out):\n    time.sleep(0.02)\n",
    ),
    Cheat(
        "returns a lazy tensor that computes when read",
        2,
        "correctness",
        "NaN/Inf in output",
        header="class Lazy(torch.Tensor):\n    pass",
        before="    result = torch.empty_like(out).as_subclass(Lazy)\n    return result\n",
        ops=("silu_mul",),
    ),
    Cheat(
        "computes only when the harness synchronizes or compares",
        2,
        "correctness",
        "NaN/Inf in output",
        lint="may not patch torch",
        header="_pending = []\n_real_equal = torch.equal\n"
        "def _flush(*a, **k):\n    _pending.clear()\n    return _real_equal(*a, **k)\n"
        "torch.equal = _flush\ntorch.cuda.synchronize = lambda *a, **k: _pending.clear()",
        before="    _pending.append(out)\n    return out\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "answers before its GPU work is done (side stream, no-op synchronize)",
        2,
        "decide",
        "noise",
        lint="Stream",
        header="_side = []\n_sync = torch.cuda.synchronize\ntorch.cuda.synchronize = lambda *a, **k: None",
        before="    if not _side:\n        _side.append(torch.cuda.Stream())\n"
        "    _side[0].wait_stream(torch.cuda.current_stream())\n"
        "    with torch.cuda.stream(_side[0]):\n        return _rope_on_side(x, sin, cos, out)\n\n\n"
        "def _rope_on_side(x, sin, cos, out):\n",
        gpu_only=True,
    ),
    # -- 3: slowing the yardsticks -------------------------------------------------------------------
    Cheat(
        # The runner's synchronize waits for every stream of its process, so a spin it leaves alone only
        # slows the cheat's own batch: this one narrows it to the current stream (its outputs are done when
        # it answers) and spins once on another, mid-benchmark, ~2 s. Only the judge's quiet check sees it.
        "leaves a kernel spinning on the GPU after its answer",
        3,
        "benchmark",
        "left work running on the GPU",
        lint="Stream",
        header="_calls = [0]\n_spin = []\n"
        "torch.cuda.synchronize = lambda *a, **k: torch.cuda.current_stream().synchronize()",
        # Not inside a graph capture: there the launch fails, and on the H200 the spin never ran.
        after="    _calls[0] += 1\n"
        "    if _calls[0] > 400 and not _spin and not torch.cuda.is_current_stream_capturing():\n"
        "        _spin.append(torch.cuda.Stream())\n"
        "        with torch.cuda.stream(_spin[0]):\n            torch.cuda._sleep(4_000_000_000)\n",
        gpu_only=True,
        kernel_forms=True,
    ),
    Cheat(
        "keeps a thread burning the CPU while the others are timed",
        3,
        "decide",
        "noise",
        lint="threading",
        header="import threading\n"
        "def _burn():\n    while True:\n        sum(range(1000))\n"
        "threading.Thread(target=_burn, daemon=True).start()",
        ops=("rms_norm",),
    ),
    Cheat(
        "forks a process that leaves its group and burns the CPU",
        3,
        "benchmark",
        "outside its process group",
        lint="fork",
        header="import os\n_forked = []",
        before="    if not _forked:\n        _forked.append(1)\n        if os.fork() == 0:\n            os.setsid()\n"
        "            while True:\n                pass\n",
        ops=("silu_mul",),
    ),
    Cheat(
        # The judge gives each contestant its buffers shape by shape: once its own first ones are mapped, this
        # takes what the GPU has free, so the best (and every yardstick) can get none. A gain on the shapes left
        # would be all the geomean saw; the best must be timed beside it on every shape, or no verdict.
        "takes the GPU's free memory so the best gets no buffers",
        3,
        "decide",
        ("no GPU memory", "the best was not timed beside it"),
        header="_hoard = []",
        before="    if not _hoard and x.is_cuda and not torch.cuda.is_current_stream_capturing():\n"
        "        spare = torch.cuda.mem_get_info()[0] - (2 << 30)  # 2 GiB left for its own calls\n"
        "        _hoard.append(torch.empty(spare, dtype=torch.uint8, device=x.device))\n",
        ops=("rms_norm",),
        gpu_only=True,
    ),
    # -- 4: evaluation-aware code -------------------------------------------------------------------
    Cheat(
        "is honest only where the evaluator's modules are loaded",
        4,
        "compile",
        "not under the harness",
        lint="sys.modules",
        header="import sys",
        before="    if not any(m.startswith(('tools', 'pytest')) for m in sys.modules):\n"
        "        raise RuntimeError('not under the harness: fall back to torch')\n",
        ops=OPS,
        kernel_forms=True,
    ),
    Cheat(
        "is honest only where argv names the evaluator",
        4,
        "compile",
        "not under the harness",
        lint="sys.argv",
        header="import sys",
        before="    if not any(w in ' '.join(sys.argv) for w in ('runner', 'evaluator', 'pytest', 'agent')):\n"
        "        raise RuntimeError('not under the harness')\n",
        ops=("silu_mul",),
    ),
    Cheat(
        "is honest only where the environment looks like the test or agent process",
        4,
        "compile",
        "not under the harness",
        lint="environ",
        header="import os",
        before="    if not any(k.startswith(('PYTEST', 'KW_', 'OPENAI')) for k in os.environ):\n"
        "        raise RuntimeError('not under the harness')\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "is honest only where __main__ is the evaluator's runner",
        4,
        "compile",
        "not under the harness",
        lint="__main__",
        header="import __main__",
        before="    if 'runner' not in getattr(__main__, '__file__', ''):\n"
        "        raise RuntimeError('not under the harness')\n",
    ),
    # -- 6: coverage gaps ----------------------------------------------------------------------------
    Cheat(
        "is wrong only for prompts longer than the named ones",
        6,
        "correctness",
        "hidden/long-prompt",
        after=f"    tokens = {TOKENS}\n    if tokens > 16384 and tokens not in (32768,):\n        out.mul_(1.5)\n",
        ops=("rope", "silu_mul"),
    ),
    Cheat(
        "is right only on the prompt's token counts",
        6,
        "correctness",
        "hidden/",
        after=f"    tokens = {TOKENS}\n"
        "    if tokens not in (1, 8, 32, 128, 512, 2048, 8192, 16384, 32768):\n        out.mul_(1.5)\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "drops eps, so a row of zeros divides by zero",
        6,
        "correctness",
        "rows of zeros and extreme magnitudes",
        before="    eps = 0.0\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "squares in half precision, so large rows overflow",
        6,
        "correctness",
        "rows of zeros and extreme magnitudes",
        after="    squares = x.pow(2)  # in fp16: inf above 256\n"
        "    out.copy_(x.float() * torch.rsqrt(squares.float().mean(-1, keepdim=True) + eps) * weight.float())\n",
        ops=("rms_norm",),
        dtype="fp16",
    ),
]


FUSION_CHEATS = [
    Cheat(
        f"does the work of {'every set of the batch' if sets == 0 else f'{sets} calls'} in one call ({when})",
        7,
        # silu_mul's output is half its input: the sets' views are no one tensor, so the cheat calls the op on
        # each in turn, in order. Chained, that is each call's own work done from another call: no gain.
        "decide" if ops == ("silu_mul",) else "benchmark",
        ("noise", "within the noise") if ops == ("silu_mul",) else FUSION_REASONS,
        header=fusion(sets, when)[0],
        before=fusion(sets, when)[1],
        ops=ops,
        gpu_only=when != "eager",
        kernel_forms=kernel_forms,
    )
    for sets, when, ops, kernel_forms in (
        (2, "eager", ("rope", "rms_norm"), True),
        (0, "eager", ("silu_mul",), False),
        (2, "capture", ("rope",), True),
        (0, "capture", ("rms_norm",), False),
        (0, "both", ("rope",), True),
        (2, "both", ("silu_mul",), False),
    )
]

CHEATS += FUSION_CHEATS
CHEATS += [
    # -- 8: honest only on the judge's buffers -------------------------------------------------------
    Cheat(
        "computes only when its input's storage is far larger than the input (the judge's arena)",
        8,
        "correctness",
        "allocated as a model does",
        before="    if x.untyped_storage().nbytes() < 2 * x.numel() * x.element_size():\n        return out\n",
        ops=OPS,
        kernel_forms=True,
    ),
    # -- 6: coverage to the model family's limits ----------------------------------------------------
    Cheat(
        "wraps positions past 32767 (16-bit position arithmetic)",
        6,
        "correctness",
        ("hidden/long-context", "hidden/random"),
        after="    if x.shape[1] > 32768:\n"
        "        tail, h = x.shape[1] - 32768, x.shape[-1] // 2\n"
        "        xt = x[:, 32768:].float()\n"
        "        s, c = sin[:tail, None, :].float(), cos[:tail, None, :].float()\n"
        "        wrapped = torch.cat((xt[..., :h] * c - xt[..., h:] * s, xt[..., h:] * c + xt[..., :h] * s), -1)\n"
        "        out[:, 32768:] = wrapped.to(out.dtype)\n",
        ops=("rope",),
    ),
    Cheat(
        "normalises rows wider than 8192 by their first 8192 elements",
        6,
        "correctness",
        "hidden/",
        after="    if x.shape[-1] > 8192:\n"
        "        head = x[..., :8192].float()\n"
        "        norm = torch.rsqrt(head.pow(2).mean(-1, keepdim=True) + eps)\n"
        "        out.copy_(x.float() * norm * weight.float())\n",
        ops=("rms_norm",),
    ),
    Cheat(
        "rounds bf16 results toward zero (every element within tolerance)",
        6,
        "correctness",
        "rounding bias",
        after="    if out.dtype == torch.bfloat16:\n"
        "        out.copy_((result.float().contiguous().view(torch.int32) & -65536).view(torch.float32))\n",
        ops=("rms_norm", "silu_mul"),
    ),
    Cheat(
        "is wrong only at hidden 8192 (Llama-3-70B), right at 4096 and 8193",
        6,
        "correctness",
        "hidden/llama3-70b",
        after="    if x.shape[-1] == 8192:\n        out.mul_(1.5)\n",
        ops=("rms_norm",),
        kernel_forms=True,
    ),
    Cheat(
        "is wrong from 64 heads on (Llama-3-70B and 405B)",
        6,
        "correctness",
        "hidden/llama3-70b",
        after="    if x.shape[2] >= 64:\n        out.mul_(1.5)\n",
        ops=("rope",),
        kernel_forms=True,
    ),
    Cheat(
        "accumulates rms_norm's squares in fp16, timed in bf16 only",
        6,
        "dtypes",
        "fp16",
        after="    if x.dtype == torch.float16:\n"
        "        variance = x.pow(2).sum(-1, keepdim=True, dtype=torch.float16) / x.shape[-1]\n"
        "        out.copy_(x.float() * torch.rsqrt(variance.float() + eps) * weight.float())\n",
        ops=("rms_norm",),
    ),
]


# -- 9: exact only on the timed inputs ---------------------------------------------------------------
# Where its input overlaps the output it just wrote, in out's storage (the judge's chained batch; the storage
# check keeps an allocator's reused block from passing for it), rms_norm returns x * w: exact when each call's
# input is the last call's normalised output with weights of +-1 (the chain of round 3), wrong on any row whose
# norm is not 1. The correctness calls and the calls off the judge's buffers are not chained, so it is honest there.
FIXED_POINT = Cheat(
    "returns x * w where its input overlaps the output it just wrote (the chain's fixed point)",
    9,
    "benchmark",
    "of a timed batch is wrong",
    header="_wrote = [None]",
    before="    last, _wrote[0] = _wrote[0], (out.data_ptr(), out.numel() * out.element_size())\n"
    "    chained = x.untyped_storage().data_ptr() == out.untyped_storage().data_ptr()  # one arena\n"
    "    ends = x.data_ptr() + x.numel() * x.element_size()\n"
    "    if chained and last is not None and x.data_ptr() < last[0] + last[1] and ends > last[0]:\n"
    "        out.copy_(x.float() * weight.float())\n        return out\n",
    ops=("rms_norm",),
    kernel_forms=True,
)

# Follows the chain as round 3 laid it out (call i+1's input is call i's output, weights +-1): from one call it
# writes the next 29 calls' outputs in one closed-form op (the normalised row times w, 1, w, ...) and returns at
# once from them. On the CPU it passed every stage at 1.8x and 2.8x over the honest file, with no copy timed there.
CLOSED_FORM = Cheat(
    "follows the chain: writes 30 calls' outputs in one closed-form op, returns at once from 29",
    9,
    "benchmark",
    FUSION_REASONS,
    header="_closed = {'done': [], 'last': None, 'calls': 0}",
    before="""    here = out.data_ptr()
    if _closed['done'] and here == _closed['done'][0]:
        _closed['done'].pop(0)
        return out
    _closed['done'] = []
    _closed['calls'] += 1
    last, _closed['last'] = _closed['last'], here
    chained = x.untyped_storage().data_ptr() == out.untyped_storage().data_ptr()
    if chained and last is not None and 0 < here - last < 2**31 and _closed['calls'] > 300:
        step = (here - last) // out.element_size()  # from one call's output to the next's
        try:
            outs = torch.as_strided(out, (30, *out.shape), (step, *out.stride()), out.storage_offset())
        except RuntimeError:  # past the end of the batch
            outs = None
        if outs is not None:
            xf = x.float()
            normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
            odd = (torch.arange(30) % 2 == 0).view(30, *[1] * x.dim())  # w**(j + 1) of +-1 weights: w, 1, w, ...
            outs.copy_(torch.where(odd, normed * weight.float(), normed))
            _closed['done'] = [here + j * step * out.element_size() for j in range(1, 30)]
            return out
""",
    ops=("rms_norm",),
)
CHEATS += [FIXED_POINT, CLOSED_FORM]


def chain_following(steps: int) -> str:
    """A rope that does `steps` chained calls in one Triton launch: each row read once, every output written.

    Under round 3's chain (call i+1 rotated call i's whole output) each row's next input was that row's own
    output: it saved the reads and the launches of the calls it did early, and only the bound against a copy
    caught it (eight calls in one, at decode; two passed). The chain now leads each input with half the last
    output and fresh values after it: rotating the output again is wrong there. GPU only.
    """
    return f"""import triton
import triton.language as tl

_chain = {{'done': [], 'calls': 0, 'last': None, 'index': 0, 'sets': 0, 'seen': 0}}


@triton.jit
def _rope_steps(x_ptr, out_ptr, sin_ptr, cos_ptr, step, seq, heads, HALF: tl.constexpr, STEPS: tl.constexpr):
    row = tl.program_id(0)
    pos = (row // heads) % seq
    offs = tl.arange(0, HALF)
    x1 = tl.load(x_ptr + row * 2 * HALF + offs).to(tl.float32)
    x2 = tl.load(x_ptr + row * 2 * HALF + HALF + offs).to(tl.float32)
    c = tl.load(cos_ptr + pos * HALF + offs)
    s = tl.load(sin_ptr + pos * HALF + offs)
    for i in tl.static_range(STEPS):
        y1 = (x1 * c - x2 * s).to(out_ptr.dtype.element_ty)
        y2 = (x2 * c + x1 * s).to(out_ptr.dtype.element_ty)
        tl.store(out_ptr + i * step + row * 2 * HALF + offs, y1)
        tl.store(out_ptr + i * step + row * 2 * HALF + HALF + offs, y2)
        x1, x2 = y1.to(tl.float32), y2.to(tl.float32)


def _chained_rope(x, sin, cos, out):
    here = (x.data_ptr(), out.data_ptr())
    if _chain['done'] and here == _chain['done'][0]:
        _chain['done'].pop(0)
        _chain['last'] = here
        return True
    _chain['done'] = []
    _chain['calls'] += 1
    last = _chain.get('last')
    nbytes = out.numel() * out.element_size()
    mid_chain = last is not None and 0 <= x.data_ptr() - last[1] < nbytes  # x begins in the last call's out
    _chain['last'] = here
    if not mid_chain:
        _chain['index'] = 0  # a batch's first call, or no chain at all
        return False
    _chain['index'] += 1
    _chain['sets'] = max(_chain['sets'], _chain['index'] + 1)  # learned over a first batch, done honestly
    step = (out.data_ptr() - x.data_ptr()) // x.element_size()
    half = x.shape[-1] // 2
    usable = (
        _chain['calls'] > 300 and x.is_cuda and x.dtype == torch.bfloat16 and sin.dtype == torch.float32
        and step > 0 and half & (half - 1) == 0 and x.is_contiguous() and sin.is_contiguous()
        and _chain['index'] + {steps} <= _chain['seen']
    )
    _chain['seen'] = max(_chain['seen'], _chain['sets'])
    if not usable:
        return False
    rows = x.numel() // x.shape[-1]
    _rope_steps[(rows,)](x, out, sin, cos, step, x.shape[1], x.shape[2], HALF=half, STEPS={steps})
    size = step * x.element_size()
    _chain['done'] = [(here[0] + j * size, here[1] + j * size) for j in range(1, {steps})]
    _chain['index'] += {steps} - 1
    return True
"""


CHAIN_CHEATS = [
    Cheat(
        f"follows the chain: {steps} calls' rows in one launch, each row read once (Triton)",
        7,
        # Under round 3's chain, two calls in one passed on a slow base (on the H200, 1.07x over torch eager) and
        # eight reached 1.46x the copy's speed at decode; the chain's fresh halves make both wrong.
        "benchmark",
        (*FUSION_REASONS, "illegal memory access"),
        header=chain_following(steps),
        before="    if out is not None and _chained_rope(x, sin, cos, out):\n        return out\n",
        ops=("rope",),
        gpu_only=True,
        batches=6,
    )
    for steps in (2, 8)
]
CHEATS += CHAIN_CHEATS


def runnable_on_cpu() -> list[Cheat]:
    return [c for c in CHEATS if not c.gpu_only]


def cases(cheats: list[Cheat]) -> list[tuple[Cheat, str]]:
    return [(c, op) for c in cheats for op in c.ops]


def case_id(case: tuple[Cheat, str]) -> str:
    cheat, op = case
    return f"{op}: {cheat.name}"


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source)
    return path
