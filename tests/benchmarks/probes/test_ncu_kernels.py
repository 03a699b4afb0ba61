"""benchmarks/probes/ncu_kernels.py without a GPU: the cases it profiles, and real ncu output read into rows."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
SPEC = importlib.util.spec_from_file_location("ncu_kernels", ROOT / "benchmarks" / "probes" / "ncu_kernels.py")
ncu_kernels = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(ncu_kernels)
SAMPLE = (ROOT / "tests" / "tools" / "data" / "ncu_raw.csv").read_text()


def test_each_kernel_case_is_followed_by_a_copy_of_the_same_shape():
    cases = ncu_kernels._cases(["rms_norm"], ["tilelang", "ninetoothed"], ["llama3-8b/decode8"], "bf16")
    assert [(c["backend"], c["shape"]) for c in cases] == [
        ("tilelang", "llama3-8b/decode8"),
        ("ninetoothed", "llama3-8b/decode8"),
        ("copy", "llama3-8b/decode8"),
    ]


def test_a_pattern_that_matches_nothing_is_an_error():
    with pytest.raises(ValueError):
        ncu_kernels._cases(["rms_norm"], ["tilelang"], ["llama3-8b/decode7"], "bf16")


def test_real_ncu_output_becomes_rows_with_the_bytes_the_op_must_move():
    # The fixture profiled rms_norm[tilelang] at these two shapes, in this order.
    cases = [
        {"op": "rms_norm", "backend": "tilelang", "shape": name, "dims": dims, "dtype": "bf16"}
        for name, dims in (("llama3-8b/decode8", [8, 4096]), ("llama3-8b/prefill2048", [2048, 4096]))
    ]
    rows = ncu_kernels._rows(cases, SAMPLE)
    assert [r["shape"] for r in rows] == ["llama3-8b/decode8", "llama3-8b/prefill2048"]
    assert rows[0]["duration_us"] == 2.848 and rows[1]["bytes_moved"] == 2 * 2048 * 4096 * 2 + 4096 * 2
    table = ncu_kernels._table(rows)
    assert "rms_norm[tilelang] llama3-8b/prefill2048" in table and len(table.splitlines()) == 3
