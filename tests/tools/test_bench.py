"""`agent bench` files (tools/bench.py): a bench of some backends keeps the others' records."""

from __future__ import annotations

import json

import pytest

from tools.bench import run_bench
from tools.evaluator.records import EvalRecord


def _bench(tmp_path):
    return run_bench(
        "rms_norm",
        ("torch",),
        baselines=("eager",),
        out_dir=tmp_path,
        shapes=["llama3.2-1b/decode1"],
        device="cpu",
        timeout_s=120,
        batches=3,
    )


def test_a_bench_of_one_backend_keeps_the_records_of_the_others(tmp_path):
    records, path, kept = _bench(tmp_path)
    assert kept == [] and [r.backend for r in records] == ["torch"]
    # An earlier bench's tilelang record in the same file, as a session that benched tilelang left it.
    data = json.loads(path.read_text())
    earlier = EvalRecord.model_validate(data["records"][0]).model_copy(
        update={"backend": "tilelang", "started": "2026-12-01T00:00:00+00:00"}
    )
    data["records"].append(earlier.model_dump())
    path.write_text(json.dumps(data))

    records, path, kept = _bench(tmp_path)
    assert kept == ["tilelang"]
    backends = [r["backend"] for r in json.loads(path.read_text())["records"]]
    assert backends == ["tilelang", "torch"]  # in the bench's order of backends
    markdown = path.with_suffix(".md").read_text()
    assert "## rms_norm[tilelang]" in markdown and "Timed 2026-12-01T00:00:00+00:00" in markdown
    assert f"Timed {records[0].started}" in markdown


def test_a_file_that_is_not_the_ops_bench_is_not_overwritten(tmp_path):
    _records, path, _kept = _bench(tmp_path)
    path.write_text(json.dumps({"op": "rope", "records": []}))
    with pytest.raises(RuntimeError, match="cannot be read as rms_norm's bench records"):
        _bench(tmp_path)
    assert json.loads(path.read_text())["op"] == "rope"
