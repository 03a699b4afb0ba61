"""benchmarks/probes/bench_goals.py on the committed bench tables and on rows made up to sit on each goal's edge."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from tools.results import ResultRow

ROOT = Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("bench_goals", ROOT / "benchmarks" / "probes" / "bench_goals.py")
bench_goals = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench_goals)


def _shape(name: str, mb: float, fraction: float, liger: float, us: float, **speedup: float) -> ResultRow:
    return ResultRow(
        backend="tilelang", shape=name, dims=[1], dtype="bf16", scope="graph", bytes_moved=int(mb * 1e6),
        fraction_of_copy=fraction, median_us=us, speedup={"liger": liger, **speedup},
    )  # fmt: skip


def test_each_goal_takes_its_worst_shape_in_its_size_band():
    rows = [
        _shape("m/prefill512", 10, 0.50, 1.5, 4.0),  # under 16 MB: no copy goal
        _shape("m/prefill2048", 20, 0.93, 1.2, 9.0),
        _shape("m/prefill8192", 100, 0.91, 0.99, 30.0),
        _shape("m/prefill16384", 200, 0.97, 1.1, 60.0),
        _shape("m/decode1", 0.01, 0.40, 2.0, 2.5),
        _shape("m/decode128", 1, 0.60, 1.3, 2.6),
    ]
    goals = bench_goals._goals(rows, compiled_per_shape=True)
    assert goals["copy_16_128mb"] == (0.91, "m/prefill8192")
    assert goals["copy_over_128mb"] == (0.97, "m/prefill16384")
    assert goals["liger_min"] == (0.99, "m/prefill8192")
    assert goals["decode_max_us"] == (2.6, "m/decode128")
    assert bench_goals._met("copy_over_128mb", 0.97) and not bench_goals._met("copy_16_128mb", 0.91)
    assert bench_goals._met("decode_max_us", 2.5) and not bench_goals._met("decode_max_us", 2.6)
    assert not bench_goals._met("liger_min", 1.0)


def test_reads_the_committed_bench_files(tmp_path, capsys, monkeypatch):
    files = sorted((ROOT / "benchmarks/results/nvidia-h200").glob("*.json"))
    assert files, "no committed bench files"
    monkeypatch.setattr(sys, "argv", ["bench_goals.py", *map(str, files), "--json", str(tmp_path / "goals.json")])
    assert bench_goals.main() == 0
    rows = json.loads((tmp_path / "goals.json").read_text())["rows"]
    assert {row["op"] for row in rows} == {"rms_norm", "add_rms_norm", "rope", "rope_qk", "silu_mul"}
    assert "| rope | tilelang |" in capsys.readouterr().out


def test_the_compile_goal_reads_only_per_shape_compile_columns():
    shape = _shape("m/prefill2048", 20, 0.93, 1.2, 9.0, compiled=0.95)
    assert bench_goals._goals([shape], compiled_per_shape=False)["compile_min"] is None  # one compile for all shapes
    goals = bench_goals._goals([shape], compiled_per_shape=True)
    assert goals["compile_min"] == (0.95, "m/prefill2048")
    assert not bench_goals._met("compile_min", 1.0) and bench_goals._met("compile_min", 1.01)
