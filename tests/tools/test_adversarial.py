"""Every cheating candidate is rejected, for each single-output op, at the right stage, with a readable reason.

CPU forms of the threats in tests/tools/adversarial.py; each runs the real
evaluator (static check here, everything else in a child process).
"""

from __future__ import annotations

import pytest

from tests.tools.adversarial import CHEATS, GOOD
from tools.evaluate import evaluate

# add_rms_norm stays out: these cheats act on one `out` tensor and its `out=` is a (sum, normed)
# pair, so they would fail with a TypeError, for the wrong reason; tests/tools/test_multi_output.py
# covers its two-output threats.
SHAPES = {
    "rope": ["decode1", "decode8"],
    "rms_norm": ["decode1", "decode8"],
    # One output too, [..., I] from x [..., 2I]: the cheats below fit it as they are.
    "silu_mul": ["decode1", "decode8"],
}
OPS = list(SHAPES)


def run(tmp_path, op: str, source: str, backend: str = "torch", dtype: str = "bf16", device: str = "cpu"):
    path = tmp_path / f"{op}_candidate.py"
    path.write_text(source)
    return evaluate(op, backend, path, shapes=SHAPES[op], dtypes=(dtype,), device=device, timeout_s=300)


@pytest.mark.parametrize("op", OPS)
def test_the_honest_versions_pass(tmp_path, op):
    record = run(tmp_path, op, GOOD[op])
    assert record.status == "ok", record.message


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("cheat", CHEATS, ids=[c.name for c in CHEATS])
def test_each_cheat_is_rejected_at_its_stage(tmp_path, op, cheat):
    record = run(tmp_path, op, cheat.source(op), cheat.backend, cheat.dtype)
    assert record.status == "failed", f"{cheat.name} was accepted"
    assert record.failed_stage == cheat.stage, record.message
    assert cheat.reason in record.message, record.message


RUNTIME_CHEATS = [c for c in CHEATS if c.stage != "static"]


@pytest.mark.gpu
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("cheat", RUNTIME_CHEATS, ids=[c.name for c in RUNTIME_CHEATS])
def test_each_cheat_is_rejected_on_the_gpu(tmp_path, op, cheat):
    """The same cheats with CUDA tensors, events, the L2 flush and the copy roofline in the loop."""
    record = run(tmp_path, op, cheat.source(op), cheat.backend, cheat.dtype, device="cuda")
    assert record.status == "failed", f"{cheat.name} was accepted"
    assert record.failed_stage == cheat.stage, record.message
    assert cheat.reason in record.message, record.message


def test_the_suite_covers_every_threat_for_both_ops():
    stages = {c.stage for c in CHEATS}
    assert stages == {"static", "correctness", "benchmark"}
    assert len(CHEATS) * 2 >= 40
