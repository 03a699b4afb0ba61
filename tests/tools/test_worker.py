"""Judging a measured bandwidth against the copy roofline (numbers measured on the H200)."""

from __future__ import annotations

from tools.worker import judge_bandwidth


def test_above_the_device_copy_bandwidth_is_a_measurement_error():
    # An unflushed replay of a 32 MB RoPE read 5.1-5.5 TB/s on an H200 whose 1 GiB copy runs ~4.2.
    plausible, note = judge_bandwidth(5300.0, copy_gbps=3250.0, ceiling_gbps=4200.0)
    assert not plausible
    assert "above the device's copy bandwidth (4200 GB/s)" in note


def test_beating_torch_copy_at_a_mid_size_is_noted_not_rejected():
    # rms_norm[tilelang] at 17 MB: 1719 GB/s, torch copy_ of the same bytes 1366 GB/s.
    plausible, note = judge_bandwidth(1719.0, copy_gbps=1366.0, ceiling_gbps=4200.0)
    assert plausible
    assert "faster than torch's copy" in note


def test_within_the_copy_is_silent():
    assert judge_bandwidth(3000.0, copy_gbps=3300.0, ceiling_gbps=4200.0) == (True, "")


def test_without_a_gpu_nothing_is_judged():
    assert judge_bandwidth(10.0, copy_gbps=None, ceiling_gbps=None) == (True, "")
