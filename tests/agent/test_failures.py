"""The failure lines a proposer is shown (agent/failures.py), from the judge's records."""

from __future__ import annotations

from pathlib import Path

from agent.failures import failure_lines
from tools.evaluator.records import EvalRecord, StageResult

RECORDED = Path(__file__).with_name("recorded")


def _recorded(name: str) -> EvalRecord:
    return EvalRecord.model_validate_json((RECORDED / name).read_text())


def test_a_correctness_failure_gives_the_first_wrong_check_a_hidden_shape_by_its_dims_only():
    # The real judge's record of a kernel wrong at head_dim 80 and 96, both hidden shapes.
    record = _recorded("09f761608c0c61a0-f681318f6a84c411.json")
    first = next(row for row in record.correctness if not row.ok)
    assert first.hidden
    lines = failure_lines(record)
    assert lines.startswith(f"failed at correctness: first wrong check: a hidden shape {first.dims} bf16")
    assert first.shape not in lines  # the hidden shape's name stays hidden
    assert f"max abs error {first.max_abs_err:.4g}" in lines and "tolerance atol=1e-05, rtol=0.0078125" in lines


def test_a_compile_failure_gives_the_stage_lines_head_and_tail():
    record = _recorded("963dfebed7bb10c1-start.json").model_copy(deep=True)
    trace = "\n".join(["Traceback (most recent call last):", *(f"  frame {i}" for i in range(40)), "E: bad intrinsic"])
    record.status, record.failed_stage = "failed", "compile"
    record.stages = [StageResult(name="compile", status="failed", message=trace)]
    lines = failure_lines(record).splitlines()
    assert lines[:2] == ["failed at compile:", "Traceback (most recent call last):"]
    assert lines[-1] == "E: bad intrinsic" and any("lines cut" in line for line in lines)


def test_a_passing_record_has_no_failure_lines():
    assert failure_lines(_recorded("963dfebed7bb10c1-start.json")) == ""
