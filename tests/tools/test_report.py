"""Terminal and markdown views of a record: which columns a CPU run has, GB/s figures, shape names that wrap."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.evaluator.records import EvalRecord, Ratio, ScopeResult, ShapeBenchmark, ShapeCorrectness, Timing
from tools.report import GPU_ONLY, gbps_text, shape_rows, terminal_columns, wrap_name

ROOT = Path(__file__).resolve().parents[2]
# An H200 record: every column has a title there.
GPU_RECORD = ROOT / "examples/runs/20261202-052242-rms_norm-maca_cpp-9210/iterations/0001/eval.json"


def timed(gpu: bool) -> EvalRecord:
    """One shape timed as the judge records it: eager wall-clock on the CPU; eager and graph scopes on a GPU."""

    def scope(us: float, method: str) -> ScopeResult:
        return ScopeResult(
            candidate=Timing(median_us=us, method=method), gbps=0.0234, speedup_vs_torch=Ratio(median=0.91)
        )

    bench = ShapeBenchmark(
        shape="llama3.2-1b/decode1",
        dims=[1, 2048],
        dtype="bf16",
        bytes_moved=8192,
        eager=scope(350.0, "eager" if gpu else "wall"),
        graph=scope(3.5, "graph") if gpu else None,
    )
    check = ShapeCorrectness(
        shape="llama3.2-1b/decode1", dims=[1, 2048], dtype="bf16", seed=1, hidden=False, ok=True, max_abs_err=0.01,
        max_rel_err=0.01,
    )  # fmt: skip
    return EvalRecord(
        op="rms_norm", backend="torch", candidate="torch reference", candidate_sha256="-", harness_sha256="-",
        started="2026-01-01T00:00:00+00:00", dtypes=["bf16"], shapes=["llama3.2-1b/decode1"],
        correctness=[check], benchmark=[bench],
    )  # fmt: skip


def test_the_error_is_read_against_the_dtypes_tolerance():
    record = timed(gpu=False)
    # bf16's relative tolerance is 2**-7: one rounding (2**-8) is half of it, and 0.01 is 1.28 of it.
    record.correctness[0].max_rel_err = 2**-8
    assert shape_rows(record)[0]["max_err"] == "1.0e-02 (0.50)"
    record.correctness[0].max_rel_err = 0.01
    assert shape_rows(record)[0]["max_err"] == "1.0e-02 (1.28)"
    record.correctness[0].max_rel_err = float("nan")  # a check that passed without measuring its error
    assert shape_rows(record)[0]["max_err"] == "1.0e-02"
    assert terminal_columns(record)["max_err"] == "max err (/tol)"


def test_a_cpu_record_leaves_out_the_columns_only_a_gpu_fills():
    titles = terminal_columns(timed(gpu=False))
    assert list(titles) == ["shape", "dtype", "status", "max_err", "eager_us", "gbps", "vs_torch"]
    assert not set(GPU_ONLY) & set(titles)


def test_a_gpu_record_keeps_every_column():
    assert set(GPU_ONLY) <= set(terminal_columns(timed(gpu=True)))
    recorded = EvalRecord.model_validate_json(GPU_RECORD.read_text())
    assert not recorded.timed_on_cpu() and set(GPU_ONLY) <= set(terminal_columns(recorded))


@pytest.mark.parametrize(
    ("gbps", "text"),
    [(None, "-"), (0.0234, "0.0234"), (0.00802, "0.00802"), (0.2114, "0.211"), (47.71, "47.7"), (1168.25, "1168")],
)
def test_gbps_keeps_three_significant_figures(gbps, text):
    assert gbps_text(gbps) == text


def test_a_cpu_rate_is_not_rounded_to_zero():
    assert shape_rows(timed(gpu=False))[0]["gbps"] == "0.0234"


@pytest.mark.parametrize(
    ("name", "width", "lines"),
    [
        ("llama3.2-1b/prefill512/q", 40, ["llama3.2-1b/prefill512/q"]),
        ("llama3.2-1b/prefill16384/q", 16, ["llama3.2-1b/", "prefill16384/q"]),
        ("llama3-8b/decode1", 12, ["llama3-8b/", "decode1"]),
        ("llama3-8b/decode1/q", 18, ["llama3-8b/", "decode1/q"]),  # the shape's own parts together
        ("camp/hidden/batch3-seq33-5heads-d128", 14, ["camp/hidden/", "batch3-seq33-", "5heads-d128"]),
        ("hidden/long-prompt-33001", 1, ["hidden/", "long-", "prompt-", "33001"]),  # parts stay whole
    ],
)
def test_a_shape_name_wraps_after_slashes_then_dashes(name, width, lines):
    assert wrap_name(name, width).splitlines() == lines
