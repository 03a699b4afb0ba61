"""The timing protocol: percentiles and the call order on the CPU; events, graphs and the copy roofline on a GPU."""

from __future__ import annotations

import time

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


class HostEvent:
    """torch.cuda.Event's protocol on the host clock: on the CPU every call has finished when it returns."""

    def __init__(self, enable_timing: bool = False):
        self.seconds: float | None = None

    def record(self) -> None:
        self.seconds = time.perf_counter()

    def elapsed_time(self, end: HostEvent) -> float:  # milliseconds, as CUDA events report
        return (end.seconds - self.seconds) * 1e3


class LoggingFlusher:
    def __init__(self, log: list[str]):
        self.log = log

    def flush(self) -> None:
        self.log.append("flush")

    def cover_host_time(self, host_seconds: float) -> None:
        self.log.append("cover")


@pytest.fixture
def host_events(monkeypatch):
    monkeypatch.setattr(torch.cuda, "Event", HostEvent)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)


def sleeper(log: list[str], name: str, seconds: float):
    def call():
        log.append(name)
        time.sleep(seconds)

    return call


def test_contenders_are_timed_in_turn_with_the_garbage_before_the_candidate_only(host_events):
    log: list[str] = []
    fns = [sleeper(log, "candidate", 0.002), sleeper(log, "incumbent", 0.0005)]
    timings = timing.time_events_alternating(
        fns, LoggingFlusher(log), reps=5, before_first=lambda: log.append("garbage")
    )
    timed = log[log.index("cover") + 1 :]
    assert timed == ["garbage", "flush", "candidate", "flush", "incumbent"] * 5
    assert [t.reps for t in timings] == [5, 5]
    assert timings[0].median_us > 1500 > 1000 > timings[1].median_us >= 500
    assert all(t.method == "events" for t in timings)


def test_reps_come_from_the_slowest_contender(host_events):
    log: list[str] = []
    fns = [sleeper(log, "fast", 0.0001), sleeper(log, "slow", 0.004)]
    fast, slow = timing.time_events_alternating(fns, LoggingFlusher(log))
    assert fast.reps == slow.reps <= timing._reps_for(0.004)


def test_one_function_is_timed_as_before(host_events):
    log: list[str] = []
    result = timing.time_events(
        sleeper(log, "kernel", 0.0002), LoggingFlusher(log), reps=3, before_each=lambda: log.append("garbage")
    )
    assert log[log.index("cover") + 1 :] == ["garbage", "flush", "kernel"] * 3 and result.reps == 3


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
