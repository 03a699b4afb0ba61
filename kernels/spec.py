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
    # args -> fp32 tensor: the exact math, one rounding left to the caller.
    reference: Callable[..., torch.Tensor]
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

    def shape(self, name: str) -> NamedShape:
        for shape in (*self.shapes, *self.hidden_shapes):
            if shape.name == name:
                return shape
        known = ", ".join(s.name for s in self.shapes)
        raise ValueError(f"{self.name} has no shape named {name!r}; known shapes: {known}")

    def select(self, patterns: Sequence[str] | None) -> tuple[NamedShape, ...]:
        """Named shapes matching any pattern (all when empty).

        A pattern matches a whole name, one of its `/`-separated parts
        ("decode1" matches ".../decode1/q" but not ".../decode128/q") or, with
        wildcards, as a glob ("*8b/prefill*").
        """
        if not patterns:
            return self.shapes
        chosen = tuple(s for s in self.shapes if any(_matches(s.name, p) for p in patterns))
        if not chosen:
            known = ", ".join(s.name for s in self.shapes)
            raise ValueError(f"no {self.name} shape matches {list(patterns)}; known shapes: {known}")
        return chosen

    def expected(self, args: tuple, dtype: torch.dtype) -> torch.Tensor:
        """The reference output rounded once to `dtype`: what a fused kernel should return."""
        return self.reference(*args).to(dtype)

    def compare(self, out: torch.Tensor, args: tuple, dtype: torch.dtype) -> Comparison:
        return compare(out, self.reference(*args), self.tolerances[dtype])


def _matches(name: str, pattern: str) -> bool:
    return name == pattern or pattern in name.split("/") or fnmatch.fnmatchcase(name, pattern)


def compare(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance) -> Comparison:
    """Compare `out` to the fp32 reference `ref`; NaN and Inf always fail."""
    if out.shape != ref.shape:
        return Comparison(False, float("inf"), float("inf"), None, 0, f"shape {tuple(out.shape)} != {tuple(ref.shape)}")
    if out.numel() == 0:
        return Comparison(True, 0.0, 0.0, None, 0, "empty")
    got = out.detach().to(device=ref.device, dtype=torch.float32)
    finite = torch.isfinite(got)
    nonfinite = int((~finite).sum())
    diff = (got - ref).abs()
    bad = ~finite | (diff > tol.atol + tol.rtol * ref.abs())
    diff = torch.where(finite, diff, torch.full_like(diff, float("inf")))
    max_abs = float(diff.max())
    max_rel = float((diff / ref.abs().clamp_min(tol.atol)).max())
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
