"""The timing protocol: percentiles on the CPU; events, graphs and the copy roofline on a GPU."""

from __future__ import annotations

import pytest
import torch

from tools import timing


def test_percentiles_of_known_samples():
    result = timing._timing([float(v) for v in range(1, 102)], "events")
    assert result.median_us == 51
    assert result.p10_us == pytest.approx(11)
    assert result.p90_us == pytest.approx(91)
    assert result.spread == pytest.approx(80 / 51)


def test_reps_are_bounded():
    assert timing._reps_for(1.0) == timing.MIN_REPS
    assert timing._reps_for(1e-9) == timing.MAX_REPS


def test_wall_clock_timing_on_the_cpu():
    x = torch.randn(256, 256)
    result = timing.time_wall(lambda: x @ x, reps=7)
    assert result.reps == 7 and result.method == "wall" and result.median_us > 0


@pytest.mark.gpu
def test_copy_roofline_is_cached_per_size_and_plausible():
    device = torch.device("cuda")
    roofline = timing.CopyRoofline(timing.L2Flusher(device))
    first = roofline.timing(device, 256 * 2**20)
    assert roofline.timing(device, 256 * 2**20) is first
    gbps = 256 * 2**20 / first.median_us / 1e3
    assert 100 < gbps < 10_000


@pytest.mark.gpu
def test_a_kernel_twice_as_big_takes_longer():
    device = torch.device("cuda")
    flusher = timing.L2Flusher(device)
    small, big = torch.randn(2**22, device=device), torch.randn(2**25, device=device)
    t_small = timing.time_events(lambda: small.mul_(1.0), flusher)
    t_big = timing.time_events(lambda: big.mul_(1.0), flusher)
    assert t_big.median_us > 2 * t_small.median_us


@pytest.mark.gpu
def test_graph_replay_time_is_per_call():
    device = torch.device("cuda")
    flusher = timing.L2Flusher(device)
    buffers = [torch.randn(2**16, device=device) for _ in range(16)]
    result = timing.time_graph(lambda i: lambda: buffers[i].mul_(1.0), 16, flusher)
    assert result.method == "graph" and 0 < result.median_us < 100
