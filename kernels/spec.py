"""The operator contract: what every op folder's `spec.py` provides.

An `OpSpec` is data plus a few pure functions: the fp32 reference, an input
generator, the named shape set (shown to the agent), hidden shapes (used only
for acceptance), tolerances per dtype and the byte count that the roofline uses.
"""

from __future__ import annotations

import fnmatch
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

DTYPES: dict[str, torch.dtype] = {
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp32": torch.float32,
}


CAMP_PREFIX = "camp/"


def dtype_name(dtype: torch.dtype) -> str:
    for name, value in DTYPES.items():
        if value == dtype:
            return name
    raise ValueError(f"unsupported dtype {dtype}; expected one of {', '.join(DTYPES)}")


def parse_dtype(name: str) -> torch.dtype:
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r}; expected one of {', '.join(DTYPES)}") from None


@dataclass(frozen=True)
class NamedShape:
    """One problem size. `dims` is the op's primary input shape (see the op's spec)."""

    name: str
    dims: tuple[int, ...]

    @property
    def decode(self) -> bool:
        """Decode-sized shapes are also timed under CUDA-graph replay."""
        return "decode" in self.name


@dataclass(frozen=True)
class Tolerance:
    """Elementwise acceptance: |out - ref| <= atol + rtol * |ref|, with ref the fp32 reference."""

    atol: float
    rtol: float


# What one rounding of the fp32 result allows: 1-2 ulp in bf16/fp16 (2**-7, 2**-10 relative); in
# fp32, reassociation, FMA and fast math functions. atol covers results near zero (or that cancel).
ONE_ROUNDING: dict[torch.dtype, Tolerance] = {
    torch.bfloat16: Tolerance(atol=1e-5, rtol=2**-7),
    torch.float16: Tolerance(atol=1e-5, rtol=2**-10),
    torch.float32: Tolerance(atol=1e-5, rtol=1e-5),
}


@dataclass(frozen=True)
class ChainLink:
    """In a timed batch, call i+1's argument `arg` ends with the first half of call i's output `output`;
    the rest of the argument, before it, is fresh, drawn by the judge.

    A model never calls an op on inputs that all exist before the first call: between two calls of rope sit
    a matmul and an attention. Chaining the judge's batch the same way means no call can do the next call's
    work. Half, not all of it: an op's output fed whole back into it can be a fixed point of the op (a
    normalised row is one of rms_norm with weights of +-1), on which a shortcut is exact; with fresh values
    after it, every call's input carries information no earlier output determines, and no value goes through
    more than two calls (docs/judge.md, "Chained calls"; tools/evaluator/layout.py places them).
    """

    arg: int  # position of the argument in the op's call
    output: int  # index of the output (in `OpSpec.outputs` order) that fills it


@dataclass(frozen=True)
class RoundingBias:
    """The mean signed error of a rounded output, in units of the output dtype's ulp at the reference.

    Round-to-nearest leaves errors spread evenly over [-0.5, 0.5] ulp (mean 0, sd 1/sqrt(12)); rounding
    toward zero moves every element about half an ulp toward zero, and rounding up or down every element
    the same way: each element can be within tolerance while a deep model sums the bias.
    """

    count: int  # elements measured (finite output, reference a normal number of the dtype)
    mean_ulps: float  # mean of (out - ref) / ulp(ref): directed rounding (up or down)
    toward_zero_ulps: float  # mean of (out - ref) * sign(ref) / ulp(ref): rounding toward (or away from) zero
    limit_ulps: float

    @property
    def ok(self) -> bool:
        return abs(self.mean_ulps) <= self.limit_ulps and abs(self.toward_zero_ulps) <= self.limit_ulps

    @property
    def message(self) -> str:
        return (
            f"rounding bias of {self.mean_ulps:+.3f} ulp (toward zero: {self.toward_zero_ulps:+.3f} ulp) over "
            f"{self.count} elements; round-to-nearest stays within +-{self.limit_ulps:.3f}"
        )


# Round-to-nearest's mean error is 0 with an sd of 1/sqrt(12) ulp per element: allowed is a fixed 0.1 ulp
# (fp32 arithmetic before the one rounding moves it by far less) plus five standard errors of the mean.
# Rounding toward zero measures about -0.5 ulp.
BIAS_LIMIT_ULPS = 0.1
BIAS_STANDARD_ERRORS = 5.0
ROUND_TO_NEAREST_SD = 12**-0.5
MANTISSA_BITS = {torch.bfloat16: 7, torch.float16: 10}
BIAS_SAMPLE = 2**20


def rounding_bias(out: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype) -> RoundingBias | None:
    """How `out` (rounded to `dtype`) leans against the fp32 `ref`; None for fp32, whose reference is no finer.

    At most BIAS_SAMPLE elements, drawn at random: their mean already pins the bias to a few thousandths of
    an ulp.
    """
    bits = MANTISSA_BITS.get(dtype)
    if bits is None or out.numel() == 0:
        return None
    got = out.detach().reshape(-1)
    ref = ref.reshape(-1)
    if ref.numel() > BIAS_SAMPLE:
        index = torch.randint(0, ref.numel(), (BIAS_SAMPLE,), device=ref.device)
        got, ref = got.index_select(0, index.to(got.device)), ref.index_select(0, index)
    got = got.to(device=ref.device, dtype=torch.float32)
    info = torch.finfo(dtype)
    # ulp(ref) from its fp32 exponent bits: 2 ** (exponent - mantissa bits of dtype), built as a float.
    exponent = (ref.contiguous().view(torch.int32) >> 23) & 0xFF
    usable = torch.isfinite(got) & (ref.abs() >= info.tiny) & (ref.abs() <= info.max) & (exponent > bits)
    got, ref, exponent = got[usable], ref[usable], exponent[usable]
    count = int(ref.numel())
    if count == 0:
        return None
    ulp = ((exponent - bits) << 23).view(torch.float32)
    error = (got - ref) / ulp
    limit = BIAS_LIMIT_ULPS + BIAS_STANDARD_ERRORS * ROUND_TO_NEAREST_SD / count**0.5
    return RoundingBias(
        count=count,
        mean_ulps=float(error.mean()),
        toward_zero_ulps=float((error * ref.sign()).mean()),
        limit_ulps=limit,
    )


@dataclass(frozen=True)
class Comparison:
    """How far an output is from the reference; `first_bad_index` is None when within tolerance."""

    ok: bool
    max_abs_err: float
    max_rel_err: float
    first_bad_index: tuple[int, ...] | None
    nonfinite: int
    message: str


@dataclass(frozen=True)
class OpSpec:
    """Everything the evaluator, tests and agent know about one operator."""

    name: str
    signature: str
    description: str
    # args -> fp32 tensor (a tuple of them, in `outputs` order, for an op with several outputs):
    # the exact math, one rounding left to the caller.
    reference: Callable[..., torch.Tensor | tuple[torch.Tensor, ...]]
    # (dims, dtype, seed, device) -> positional args of the op, freshly generated.
    make_inputs: Callable[[tuple[int, ...], torch.dtype, int, str], tuple]
    # (dims, dtype) -> bytes a perfect kernel reads and writes once each.
    bytes_moved: Callable[[tuple[int, ...], torch.dtype], int]
    # Raises TypeError / ValueError with an actionable message; shared by every backend.
    check_inputs: Callable[..., None]
    shapes: tuple[NamedShape, ...]
    hidden_shapes: tuple[NamedShape, ...]
    tolerances: dict[torch.dtype, Tolerance]
    # rng -> a shape drawn fresh for each evaluation, so no fixed list can be special-cased.
    random_hidden_shape: Callable[[random.Random], NamedShape]
    dtypes: tuple[torch.dtype, ...] = field(default=(torch.bfloat16, torch.float16, torch.float32))
    # The op's outputs. One: `out=` is a tensor and the op returns it. Several: `out=` is a tuple of
    # buffers in this order and the op returns that tuple; each is shaped as `empty_output` makes it.
    outputs: tuple[str, ...] = ("out",)
    # Tolerances of the outputs that do not use `tolerances`, by output name (e.g. an exact sum).
    output_tolerances: dict[str, dict[torch.dtype, Tolerance]] = field(default_factory=dict)
    # args -> each output's shape, in `outputs` order, for ops whose results are not shaped like their
    # first input (silu_mul: [..., 2I] -> [..., I]; rope_qk: one output like q, one like k); None:
    # every output has the first input's shape.
    output_shapes: Callable[..., tuple[tuple[int, ...], ...]] | None = None
    # (*args) -> args with rows of zeros and of extreme (but representable) magnitudes where the op's math
    # allows: one more input set per shape in the correctness stage. None: no such set.
    hazards: Callable[..., tuple] | None = None
    # (*args) -> the same values as a model of the MetaX camp passes them (rope: sin/cos in x's dtype and
    # longer than seq; rms_norm: x with a leading batch dim): one more correctness case on a few shapes.
    camp_inputs: Callable[..., tuple] | None = None
    # (*args) -> per output, the magnitude of the largest terms summed into each element (rope: |x1 cos| +
    # |x2 sin|). Where such terms cancel, any fp32 computation, the reference's own included, is off by some
    # ulp of the terms, not of the small result: `compare` allows FP32_TERM_ULPS of them besides the
    # tolerance. None: no output is a difference of large terms.
    term_scale: Callable[..., tuple[torch.Tensor, ...]] | None = None
    # How the calls of a timed batch depend on each other: call i+1's argument `arg` ends with the first
    # half of call i's output. Every op with an output that fits one of its arguments has a link.
    chain: tuple[ChainLink, ...] = ()
    # No honest call moves its bytes faster than a copy of the same bytes, timed the same way, by more than
    # this factor: a faster figure is a measurement error and fails the candidate. Above 1 because an op's mix
    # of reads and writes is not the copy's half and half, and for noise.
    copy_bound: float = 1.10

    def camp_shapes(self) -> tuple[NamedShape, ...]:
        """The hidden shapes again, named camp/..., whose inputs are passed as the camp's model does."""
        if self.camp_inputs is None:
            return ()
        return tuple(NamedShape(CAMP_PREFIX + s.name, s.dims) for s in self.hidden_shapes)

    def inputs_for(self, shape: NamedShape, dtype: torch.dtype, seed: int, device: str) -> tuple:
        """`make_inputs` for a shape, in the camp's form for a camp/... shape."""
        args = self.make_inputs(shape.dims, dtype, seed, device)
        if shape.name.startswith(CAMP_PREFIX) and self.camp_inputs is not None:
            return self.camp_inputs(*args)
        return args

    def shape(self, name: str) -> NamedShape:
        for shape in (*self.shapes, *self.hidden_shapes):
            if shape.name == name:
                return shape
        known = ", ".join(s.name for s in self.shapes)
        raise ValueError(f"{self.name} has no shape named {name!r}; known shapes: {known}")

    def shape_parts(self) -> str:
        """The named shapes in a line, each /-part's values in order: 'llama3.2-1b|llama3-8b / decode1|decode8'."""
        parts: list[dict[str, None]] = []
        for shape in self.shapes:
            for i, part in enumerate(shape.name.split("/")):
                if i == len(parts):
                    parts.append({})
                parts[i][part] = None
        return " / ".join("|".join(values) for values in parts)

    def select(self, patterns: Sequence[str] | None) -> tuple[NamedShape, ...]:
        """Named shapes matching any pattern (all when empty).

        A pattern matches a whole name, one of its `/`-separated parts
        ("decode1" matches ".../decode1/q" but not ".../decode128/q") or, with
        wildcards, as a glob ("*8b/prefill*").
        """
        if not patterns:
            return self.shapes
        # Every pattern must match: one that matched nothing beside one that did was dropped without a word
        # ("llama3-8b/prefill" is not a part of "llama3-8b/prefill512"; H200, eleventh session).
        unmatched = [p for p in patterns if not any(_matches(s.name, p) for s in self.shapes)]
        if unmatched:
            raise ValueError(
                f"no {self.name} shape matches {unmatched}: its {len(self.shapes)} shapes are named from "
                f"{self.shape_parts()}; a pattern is a whole name, one /-part of it (decode8) or a glob such as "
                "'llama3-8b/prefill*'"
            )
        return tuple(s for s in self.shapes if any(_matches(s.name, p) for p in patterns))

    def empty_output(self, args: tuple, index: int = 0) -> torch.Tensor:
        """An uninitialised buffer for output `index`: its shape, the first input's dtype and device."""
        first = args[0]
        shape = tuple(first.shape) if self.output_shapes is None else tuple(self.output_shapes(*args)[index])
        return torch.empty(shape, dtype=first.dtype, device=first.device)

    @property
    def multi_output(self) -> bool:
        return len(self.outputs) > 1

    def tolerance(self, dtype: torch.dtype, output: str | None = None) -> Tolerance:
        """The tolerance of one output (the first when None) in `dtype`."""
        return self.output_tolerances.get(output or self.outputs[0], self.tolerances)[dtype]

    def as_outputs(self, value) -> tuple:
        """`out=`, a result or the reference as a tuple in `outputs` order (a lone tensor for one output)."""
        return tuple(value) if self.multi_output else (value,)

    def empty_out(self, args: tuple, fill: float | None = None):
        """What `out=` takes: one buffer per output (a tuple for several), each as `empty_output` makes it.

        `fill` (NaN, for the correctness check) poisons them, so an element left unwritten shows.
        """
        buffers = tuple(self.empty_output(args, index) for index in range(len(self.outputs)))
        if fill is not None:
            for buffer in buffers:
                buffer.fill_(fill)
        return buffers if self.multi_output else buffers[0]

    def returned_out(self, result: object, out) -> bool:
        """Whether an op's `result` is the `out=` buffers it was given (each one, in order)."""
        if not self.multi_output:
            return isinstance(result, torch.Tensor) and result.data_ptr() == out.data_ptr()
        if not isinstance(result, (tuple, list)) or len(result) != len(self.outputs):
            return False
        return all(
            isinstance(r, torch.Tensor) and r.data_ptr() == o.data_ptr() for r, o in zip(result, out, strict=True)
        )

    def expected(self, args: tuple, dtype: torch.dtype):
        """The reference output(s) rounded once to `dtype`: what a fused kernel should return."""
        rounded = tuple(ref.to(dtype) for ref in self.as_outputs(self.reference(*args)))
        return rounded if self.multi_output else rounded[0]

    def compare(self, out, args: tuple, dtype: torch.dtype) -> Comparison:
        """`out` (a tensor, or a tuple for several outputs) against the fp32 reference."""
        return self.compare_to(out, self.as_outputs(self.reference(*args)), dtype, scales=self.term_scales(args))

    def term_scales(self, args: tuple) -> tuple[torch.Tensor, ...] | None:
        """Per output, the magnitude of the terms that cancel in it (`term_scale`), or None."""
        return None if self.term_scale is None else tuple(self.term_scale(*args))

    def compare_to(
        self, out, refs: tuple, dtype: torch.dtype, detail: bool = True, scales: tuple | None = None
    ) -> Comparison:
        """`out` against references already computed (`as_outputs(reference(*args))`): the judge reuses them.

        `detail` False: a pass says only that (its errors are NaN, not measured); a failure is described.
        `scales`: `term_scales(args)` of the same args, where the inputs can make terms cancel (hazard rows).
        """
        scales = scales or (None,) * len(refs)
        if not self.multi_output:
            return compare(out, refs[0], self.tolerance(dtype), detail, scales[0])
        names = ", ".join(self.outputs)
        if not isinstance(out, (tuple, list)) or len(out) != len(refs):
            got = f"a {type(out).__name__}" + (f" of {len(out)}" if isinstance(out, (tuple, list)) else "")
            message = f"{self.name} has {len(refs)} outputs ({names}): expected a tuple of them, got {got}"
            return Comparison(False, float("inf"), float("inf"), None, 0, message)
        if not all(isinstance(o, torch.Tensor) for o in out):
            kinds = ", ".join(type(o).__name__ for o in out)
            message = f"{self.name}'s outputs ({names}) must be tensors; got {kinds}"
            return Comparison(False, float("inf"), float("inf"), None, 0, message)
        parts = [
            (name, compare(o, ref, self.tolerance(dtype, name), detail, scale))
            for name, o, ref, scale in zip(self.outputs, out, refs, scales, strict=True)
        ]
        return combine(parts)


def hazard_rows(t: torch.Tensor, big: float, tiny: float = 1e-4) -> torch.Tensor:
    """A copy of `t` seen as rows of its last dim: row 0 zeros, row 1 scaled to max |value| = big, row 2 to tiny.

    Rows that do not exist (a one-row input) are left out; the other rows keep their values.
    """
    out = t.clone()
    rows = out.view(-1, out.shape[-1]) if out.numel() else out
    if rows.numel() == 0:
        return out
    rows[0] = 0
    for index, magnitude in ((1, big), (2, tiny)):
        if rows.shape[0] > index:
            row = rows[index].float()
            rows[index] = (row / row.abs().max().clamp_min(1e-30) * magnitude).to(rows.dtype)
    return out


def _matches(name: str, pattern: str) -> bool:
    return name == pattern or pattern in name.split("/") or fnmatch.fnmatchcase(name, pattern)


def combine(parts: Sequence[tuple[str, Comparison]]) -> Comparison:
    """One verdict for several named outputs: ok only if each is; the failing ones' messages by name."""
    bad = [(name, c) for name, c in parts if not c.ok]
    max_abs = max(c.max_abs_err for _, c in parts)
    max_rel = max(c.max_rel_err for _, c in parts)
    nonfinite = sum(c.nonfinite for _, c in parts)
    if not bad:
        return Comparison(True, max_abs, max_rel, None, 0, "ok")
    message = "; ".join(f"output `{name}`: {c.message}" for name, c in bad)
    return Comparison(False, max_abs, max_rel, bad[0][1].first_bad_index, nonfinite, message)


# Ulps of fp32 of the cancelling terms allowed besides the tolerance: the reference rounds each product and
# the sum (two roundings on the terms' scale), a kernel as many, or one fused (FMA).
FP32_TERM_ULPS = 4


def compare(
    out: torch.Tensor, ref: torch.Tensor, tol: Tolerance, detail: bool = True, scale: torch.Tensor | None = None
) -> Comparison:
    """Compare `out` to the fp32 reference `ref`; NaN and Inf always fail.

    `detail` False: one device sync where the outputs pass (the judge's timed batches, hundreds per
    evaluation), whose error figures are then NaN (not measured); a failure is measured as always.
    `scale`: the magnitude of terms that cancel in each element (OpSpec.term_scale); FP32_TERM_ULPS ulps of
    it are allowed besides atol + rtol * |ref|.
    """
    if out.shape != ref.shape:
        return Comparison(False, float("inf"), float("inf"), None, 0, f"shape {tuple(out.shape)} != {tuple(ref.shape)}")
    if out.numel() == 0:
        return Comparison(True, 0.0, 0.0, None, 0, "empty")
    got = out.detach().to(device=ref.device, dtype=torch.float32)
    if not detail:
        # NaN compares false and an infinite output's difference is inf or NaN: non-finite outputs fail here too.
        within = (got - ref).abs() <= _allowed(ref, tol, scale)
        if bool(within.all()):
            return Comparison(True, float("nan"), float("nan"), None, 0, "ok")
    finite = torch.isfinite(got)
    nonfinite = int((~finite).sum())
    diff = (got - ref).abs()
    bad = ~finite | (diff > _allowed(ref, tol, scale))
    diff = torch.where(finite, diff, torch.full_like(diff, float("inf")))
    max_abs = float(diff.max())
    # The floor keeps an exact tolerance (atol 0) from dividing 0 by 0.
    max_rel = float((diff / ref.abs().clamp_min(max(tol.atol, torch.finfo(torch.float32).tiny))).max())
    if not bool(bad.any()):
        return Comparison(True, max_abs, max_rel, None, 0, "ok")
    flat = int(bad.flatten().nonzero()[0])
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), ref.shape))
    message = (
        f"{int(bad.sum())} of {bad.numel()} elements out of tolerance "
        f"(atol={tol.atol:g}, rtol={tol.rtol:g}); "
        f"first at {index}: got {float(got[index]):g}, expected {float(ref[index]):g}"
    )
    if nonfinite:
        message = f"{nonfinite} NaN/Inf in output; " + message
    return Comparison(False, max_abs, max_rel, index, nonfinite, message)


def _allowed(ref: torch.Tensor, tol: Tolerance, scale: torch.Tensor | None) -> torch.Tensor:
    allowed = tol.atol + tol.rtol * ref.abs()
    if scale is None:
        return allowed
    ulp = torch.finfo(torch.float32).eps
    return allowed + FP32_TERM_ULPS * ulp * scale.to(device=ref.device, dtype=torch.float32)
