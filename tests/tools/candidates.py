"""Candidate kernel files that attack the judge's process rather than get an op wrong.

Each one kills, hangs or crashes the process that runs it; the ones that kill their process are
written so that the static check does not catch them: the sandbox has to. They are rope
candidates (GOOD_ROPE with a line injected), but no op's wrong answer, so they live here with
the judge's tests; rope's own wrong answers are in kernels/rope/candidates.py.
"""

from __future__ import annotations

from workbench.kernels.rope.candidates import rope_with

HANGS = rope_with(body_before="    while True:\n        pass\n")
EXITS = rope_with(imports="import os", body_before='    os.__dict__["_ex" + "it"](3)\n')
SEGFAULTS = rope_with(imports="import faulthandler", body_before="    faulthandler._sigsegv()\n")
CALLS_EXIT_OPENLY = rope_with(imports="import os", body_before="    os._exit(0)\n")

# A Triton kernel that stores far outside its buffer: an illegal memory access on a GPU.
ILLEGAL_ADDRESS = """
import torch
import triton
import triton.language as tl


@triton.jit
def _scribble(ptr):
    tl.store(ptr + (1 << 40), 1.0)


def rope(x, sin, cos, *, out=None):
    _scribble[(1,)](out)
    return out
"""
