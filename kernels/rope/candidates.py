"""rope candidates for the evaluator's and the loop's tests: one honest, the rest wrong on purpose.

They are torch-backend candidates (torch math is allowed there) so they run on the CPU;
each wrong one must be rejected by a specific stage of the evaluator. Candidates that attack
the judge itself (hang, exit, crash) are no op's wrong answer: they live with the judge's
tests (tests/tools/candidates.py, tests/tools/evaluator/cheats.py).
"""

from __future__ import annotations

GOOD_ROPE = """
import torch


def rope(x, sin, cos, *, out=None):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[: x.shape[1], None, :].float(), cos[: x.shape[1], None, :].float()  # first seq rows
    result = torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)
    if out is None:
        return result.to(x.dtype)
    out.copy_(result)
    return out
"""


def rope_with(body_before: str = "", body_after: str = "", imports: str = "") -> str:
    """GOOD_ROPE with code injected before the math and before the return."""
    source = GOOD_ROPE.replace("import torch\n", f"import torch\n{imports}\n")
    source = source.replace("    half = x.shape[-1] // 2\n", f"{body_before}    half = x.shape[-1] // 2\n")
    return source.replace("    out.copy_(result)\n", f"    out.copy_(result)\n{body_after}")


SYNTAX_ERROR = GOOD_ROPE.replace("def rope(x, sin, cos, *, out=None):", "def rope(x, sin, cos, *, out=None)")
# Wrong only on llama3.2-1b/decode8/q: every other named and hidden shape is right.
WRONG_ON_ONE_SHAPE = rope_with(body_after="    if tuple(x.shape) == (8, 1, 32, 64):\n        out[0, 0, 0, 0] += 1.0\n")
RETURNS_NAN = rope_with(body_after="    out.view(-1)[-1] = float('nan')\n")
IGNORES_OUT = GOOD_ROPE.replace("    if out is None:\n", "    if True:\n")
MODIFIES_INPUT = rope_with(body_after="    x.zero_()\n")
# Returns the first result it computed for a shape, whatever the inputs: fresh seeds catch it.
CACHES_OUTPUT = rope_with(
    imports="_cache = {}",
    body_before=("    if tuple(x.shape) in _cache:\n        out.copy_(_cache[tuple(x.shape)])\n        return out\n"),
    body_after="    _cache[tuple(x.shape)] = out.clone()\n",
)
NO_OUT_PARAMETER = GOOD_ROPE.replace("def rope(x, sin, cos, *, out=None):", "def rope(x, sin, cos):")
# No rotation at all: wrong everywhere, yet a model whose tokens do not depend on RoPE would not notice.
ROPE_WITHOUT_ROTATION = GOOD_ROPE.replace("    half = x.shape[-1] // 2\n", "    return x.clone()\n")
