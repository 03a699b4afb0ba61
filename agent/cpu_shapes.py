"""Which named shapes `agent eval` times when it runs on a CPU and no `--shapes` was given.

Every named shape is a GPU-sized problem (prefill of up to 32768 tokens): the torch RoPE over all 32 of
them took 7 minutes and 4.4 GB on a 2-core machine. On a CPU the timings only show that the judge
works (they are its wall clock, not performance figures), so a few small shapes show the same: one
decode batch and the shortest prefill of the smaller model. `--shapes` still picks any others.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from workbench.kernels.spec import OpSpec

# A decode batch and the shortest prefill of Llama-3.2-1B: both regimes, each shape at most a few MB.
CPU_PATTERNS = ("llama3.2-1b/decode8*", "llama3.2-1b/prefill512*")


@dataclass(frozen=True)
class ShapeChoice:
    """The shapes to time (None: all named shapes) and what to tell the user about the choice, if anything."""

    shapes: list[str] | None
    note: str | None = None


def _bytes(spec: OpSpec, shape) -> int:
    return spec.bytes_moved(shape.dims, spec.dtypes[0])


def choose(spec: OpSpec, asked: list[str] | None, on_cpu: bool) -> ShapeChoice:
    """`asked` as given; on a CPU without it, the small default set, named in the note.

    An op without Llama-3.2-1B shapes (an op folder of one's own) gets its smallest named shape.
    """
    if asked:
        if on_cpu and len(spec.select(asked)) == len(spec.shapes):
            return ShapeChoice(
                list(asked),
                f"timing all {len(spec.shapes)} named shapes on the CPU: expect minutes, and GBs of memory for "
                "the prefill shapes",
            )
        return ShapeChoice(list(asked))
    if not on_cpu:
        return ShapeChoice(None)
    names = [s.name for s in spec.shapes if any(fnmatch.fnmatchcase(s.name, p) for p in CPU_PATTERNS)]
    if not names:
        names = [min(spec.shapes, key=lambda s: _bytes(spec, s)).name]
    return ShapeChoice(
        names,
        f"on the CPU, {len(names)} small shape(s) by default ({', '.join(names)}) of {len(spec.shapes)}; "
        "--shapes picks others ('--shapes \"*\"' times all, in minutes)",
    )
