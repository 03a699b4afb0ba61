"""The bench tables (tools/results.py): compact rows from the judge's records, one file per op, kept per backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tools.test_report import timed
from tools.results import ResultTable

ROOT = Path(__file__).resolve().parents[2]
# The op tables; agent.json beside them is the agent benchmark's (tests/tools/test_agent_bench.py).
RESULTS = sorted(p for p in (ROOT / "benchmarks" / "results").glob("*/*.json") if p.name != "agent.json")


def test_a_record_becomes_a_row_per_shape_and_scope():
    table = ResultTable.from_records("rms_norm", [timed(gpu=True)])
    assert [(r.shape, r.scope, r.median_us) for r in table.rows] == [
        ("llama3.2-1b/decode1", "eager", 350.0),
        ("llama3.2-1b/decode1", "graph", 3.5),
    ]
    assert all(r.speedup == {"torch": 0.91} and r.max_abs_err == 0.01 for r in table.rows)
    assert table.bench("torch").decision_scope == "graph" and not table.bench("torch").timed_on_cpu


def test_cpu_markdown_says_its_timings_are_no_performance_figures_in_the_one_layout():
    cpu = ResultTable.from_records("rms_norm", [timed(gpu=False)]).markdown()
    gpu = ResultTable.from_records("rms_norm", [timed(gpu=True)]).markdown()
    assert "they are not performance figures" in cpu and "they are not performance figures" not in gpu
    assert "| graph µs/call |" in cpu and "| graph µs/call |" in gpu  # a results file keeps every column
    assert "| llama3.2-1b/decode1 | bf16 | ok | 1.0e-02 | 350.00 | 3.50 | host | 0.0234 | - | 0.91x |" in gpu


def test_a_table_saves_and_loads_unchanged_with_its_markdown(tmp_path):
    table = ResultTable.from_records("rms_norm", [timed(gpu=True)])
    path = tmp_path / "rms_norm.json"
    table.save(path)
    assert ResultTable.load(path, "rms_norm") == table
    assert path.with_suffix(".md").read_text() == table.markdown() + "\n"
    assert len(path.read_text().splitlines()) == 1 + len(table.rows) + 1  # the head, a row a line, the end


def test_a_newer_bench_replaces_its_backends_and_keeps_the_others():
    torch_only = ResultTable.from_records("rms_norm", [timed(gpu=True)])
    earlier = timed(gpu=False).model_copy(update={"backend": "tilelang", "started": "2026-12-01T00:00:00+00:00"})
    table = ResultTable.from_records("rms_norm", [earlier]).merged(torch_only, order=("tilelang", "torch"))
    assert [b.backend for b in table.benches] == ["tilelang", "torch"]
    assert {r.backend for r in table.rows} == {"tilelang", "torch"}
    again = table.merged(ResultTable.from_records("rms_norm", [timed(gpu=False)]))
    assert [r.scope for r in again.backend_rows("torch")] == ["eager"]  # the torch rows replaced
    assert again.bench("tilelang").started == "2026-12-01T00:00:00+00:00"


def test_a_file_of_another_op_or_format_is_refused(tmp_path):
    path = tmp_path / "rms_norm.json"
    ResultTable(op="rope").save(path)
    with pytest.raises(RuntimeError, match="holds rope's results, not rms_norm's"):
        ResultTable.load(path, "rms_norm")
    path.write_text(json.dumps({"op": "rms_norm", "records": [{"backend": 1}]}))
    with pytest.raises(RuntimeError, match="cannot be read as a bench file"):
        ResultTable.load(path, "rms_norm")


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_committed_results_load_and_their_markdown_is_current(path):
    table = ResultTable.load(path, path.stem)
    assert table.rows and all(r.backend in {b.backend for b in table.benches} for r in table.rows)
    assert path.with_suffix(".md").read_text() == table.markdown() + "\n"
