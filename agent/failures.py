"""What a failed evaluation says, in a few lines a proposer can act on (the llm policy's next prompt).

A compile or static failure gives the stage's own lines (the compiler's errors, the lint's finding);
a correctness failure gives the first wrong check: its shape (a hidden shape by its dims only), dtype,
errors and the tolerance it missed. The record is the judge's; this only picks lines out of it.
"""

from __future__ import annotations

from tools.evaluator.records import EvalRecord, ShapeCorrectness

# A traceback's head says where, its tail what: keep both, drop the middle.
HEAD_LINES = 3
TAIL_LINES = 15
MAX_CHARS = 1500


def _clip(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) > HEAD_LINES + TAIL_LINES:
        cut = len(lines) - HEAD_LINES - TAIL_LINES
        lines = [*lines[:HEAD_LINES], f"... ({cut} lines cut)", *lines[-TAIL_LINES:]]
    text = "\n".join(lines)
    return text if len(text) <= MAX_CHARS else "..." + text[-(MAX_CHARS - 3) :]


def _tolerance(op: str, dtype: str) -> str:
    try:
        from workbench.kernels import registry
        from workbench.kernels.spec import parse_dtype

        tol = registry.spec(op).tolerance(parse_dtype(dtype))
    except (KeyError, ValueError):
        return ""
    return f"atol={tol.atol:g}, rtol={tol.rtol:g}"


def wrong_check(op: str, row: ShapeCorrectness) -> str:
    """One wrong correctness check in a line: shape, dtype, errors, the tolerance, and the judge's detail."""
    where = f"a hidden shape {row.dims}" if row.hidden else f"{row.shape} {row.dims}"
    tolerance = _tolerance(op, row.dtype)
    line = (
        f"first wrong check: {where} {row.dtype} (seed {row.seed}): max abs error {row.max_abs_err:.4g}, "
        f"max rel error {row.max_rel_err:.4g}" + (f"; tolerance {tolerance}" if tolerance else "")
    )
    if not row.inputs_unchanged:
        line += "; it changed its inputs"
    if not row.wrote_into_out:
        line += "; it did not write into `out`"
    return line + (f"; {row.message}" if row.message else "")


def failure_lines(record: EvalRecord) -> str:
    """The lines that say why `record` failed; "" for a record that passed."""
    if record.status == "ok":
        return ""
    stage = record.stage(record.failed_stage) if record.failed_stage else None
    head = f"failed at {record.failed_stage}" if record.failed_stage else "failed"
    if record.failed_stage == "correctness":
        wrong = next((row for row in record.correctness if not row.ok), None)
        if wrong is not None:
            return _clip(f"{head}: {wrong_check(record.op, wrong)}")
    return _clip(f"{head}:\n{stage.message if stage else record.message}")
