"""Parsing real `ncu --csv --page raw` output (captured on the H200 by benchmarks/probes/ncu_sample.py)."""

from __future__ import annotations

from pathlib import Path

from tools.evaluator.profile import ncu_command, parse_ncu_csv, summarise

SAMPLE = (Path(__file__).parents[1] / "data" / "ncu_raw.csv").read_text()
SHAPES = [("llama3-8b/decode8", "bf16"), ("llama3-8b/prefill2048", "bf16")]


def test_each_shape_gets_its_own_kernel_row_between_markers():
    profiles = parse_ncu_csv(SAMPLE, SHAPES)
    assert [p.shape for p in profiles] == ["llama3-8b/decode8", "llama3-8b/prefill2048"]
    assert all(p.kernel == "rms_norm_kernel_kernel" for p in profiles)


def test_metrics_are_numbers_in_the_right_units():
    decode, prefill = parse_ncu_csv(SAMPLE, SHAPES)
    assert decode.duration_us == 2.848  # ncu reports "2,848" ns
    assert prefill.duration_us > decode.duration_us
    assert prefill.dram_throughput_pct > decode.dram_throughput_pct
    assert decode.registers_per_thread == 39
    assert decode.local_memory_spill_requests == 0
    assert 0 < decode.achieved_occupancy_pct <= 100


def test_summary_is_one_line_per_kernel_for_a_person_or_an_llm():
    text = summarise(parse_ncu_csv(SAMPLE, SHAPES))
    assert len(text.splitlines()) == 2
    assert "DRAM" in text and "regs/thread" in text


def test_output_without_a_table_gives_no_rows():
    assert parse_ncu_csv("==PROF== No kernels were profiled.\n", SHAPES) == []


def test_ncu_keeps_the_clocks_alone():
    command = ncu_command()
    assert command[command.index("--clock-control") + 1] == "none"
