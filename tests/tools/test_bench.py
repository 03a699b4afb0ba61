"""`agent bench` files (tools/bench.py): a bench of some backends keeps the others' results."""

from __future__ import annotations

import json

import pytest

from tools.bench import run_bench
from tools.evaluator.options import EvalOptions
from tools.results import ResultTable


def _bench(tmp_path):
    options = EvalOptions(baselines=("eager",), shapes=["llama3.2-1b/decode1"], device="cpu", timeout_s=120, batches=3)
    return run_bench("rms_norm", ("torch",), options, out_dir=tmp_path)


def test_a_bench_of_one_backend_keeps_the_results_of_the_others(tmp_path):
    records, path, kept = _bench(tmp_path)
    assert kept == [] and [r.backend for r in records] == ["torch"]
    # An earlier bench's tilelang results in the same file, as a bench of tilelang left them.
    earlier = records[0].model_copy(update={"backend": "tilelang", "started": "2026-12-01T00:00:00+00:00"})
    ResultTable.load(path).merged(ResultTable.from_records("rms_norm", [earlier])).save(path)

    records, path, kept = _bench(tmp_path)
    assert kept == ["tilelang"]
    table = ResultTable.load(path, "rms_norm")
    assert [b.backend for b in table.benches] == ["tilelang", "torch"]  # in the bench's order of backends
    markdown = path.with_suffix(".md").read_text()
    assert "## rms_norm[tilelang]" in markdown and "Timed 2026-12-01T00:00:00+00:00" in markdown
    assert f"Timed {records[0].started}" in markdown


def test_a_file_that_is_not_the_ops_bench_is_not_overwritten(tmp_path):
    _records, path, _kept = _bench(tmp_path)
    path.write_text(json.dumps({"op": "rope", "benches": [], "rows": []}))
    with pytest.raises(RuntimeError, match="holds rope's results, not rms_norm's"):
        _bench(tmp_path)
    assert json.loads(path.read_text())["op"] == "rope"
