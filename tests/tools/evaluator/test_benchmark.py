"""The benchmark stage's own rules, without runners: what is verified, and when rounds go on."""

from __future__ import annotations

import random
import time
import types

from tools.evaluator import benchmark
from tools.evaluator.benchmark import BenchmarkStage, Seat


def _stage(**attrs):
    stage = types.SimpleNamespace(
        rng=random.Random(0), cuda=True, request=types.SimpleNamespace(batches=10, shapes=[None] * 16, dtypes=["bf16"])
    )
    stage.__dict__.update(attrs)
    stage._live = lambda seats: [s for s in seats if not s.dropped]
    return stage


def test_small_batches_are_verified_call_by_call():
    assert BenchmarkStage._sample(_stage(), 5, 1024) == [0, 1, 2, 3, 4]


def test_a_long_batch_is_verified_on_a_sample_drawn_by_the_judge():
    sample = BenchmarkStage._sample(_stage(), 1000, 1024)
    assert len(sample) == benchmark.VERIFY_CALLS and sample == sorted(set(sample))
    assert sample != list(range(benchmark.VERIFY_CALLS))  # drawn, not the first calls
    assert BenchmarkStage._sample(_stage(rng=random.Random(1)), 1000, 1024) != sample


def test_large_outputs_are_sampled_by_bytes_but_at_least_one_call():
    per_call = benchmark.VERIFY_BYTES // 2
    assert len(BenchmarkStage._sample(_stage(), 8, per_call)) == 2
    assert len(BenchmarkStage._sample(_stage(), 8, 4 * benchmark.VERIFY_BYTES)) == 1


def _pair(eager_spread: float, graph_spread: float, rounds: int = 12, slower: float = 0.0):
    def seat(name, phase):  # out of phase with the other seat: their ratio varies batch by batch
        s = Seat(name, runner=None)
        s.counts = {"eager": 10, "graph": 10}
        s.totals = {
            "eager": [1.0 + eager_spread * ((i + phase) % 3 - 1) for i in range(rounds)],
            "graph": [1.0 + graph_spread * ((i + phase) % 3 - 1) for i in range(rounds)],
        }
        return s

    candidate, incumbent = seat("candidate", 0), seat("incumbent", 1)
    candidate.totals["graph"] = [t * (1 + slower) for t in candidate.totals["graph"]]
    return [candidate, incumbent]


def test_rounds_go_on_while_the_graph_ratio_is_wide():
    stage = _stage()
    assert BenchmarkStage._more_rounds(stage, _pair(0.0, 0.2), 12, time.monotonic())


def test_a_noisy_eager_scope_alone_buys_no_rounds():
    stage = _stage()
    assert not BenchmarkStage._more_rounds(stage, _pair(0.2, 0.0), 12, time.monotonic())


def test_no_extra_rounds_past_the_cap_or_on_the_cpu():
    assert not BenchmarkStage._more_rounds(_stage(), _pair(0.0, 0.2), 30, time.monotonic())
    assert not BenchmarkStage._more_rounds(_stage(cuda=False), _pair(0.0, 0.2), 12, time.monotonic())


def test_a_shape_already_slower_beyond_noise_buys_no_rounds():
    assert BenchmarkStage._more_rounds(_stage(), _pair(0.0, 0.03), 12, time.monotonic())
    assert not BenchmarkStage._more_rounds(_stage(), _pair(0.0, 0.03, slower=0.5), 12, time.monotonic())


def _timed(mine: list[float], theirs: list[float], scope: str = "graph"):
    from tools.evaluator.records import ScopeResult, ShapeBenchmark, Timing

    result = ScopeResult(
        candidate=Timing(median_us=sorted(mine)[len(mine) // 2], batch_us=mine),
        incumbent=Timing(median_us=sorted(theirs)[len(theirs) // 2], batch_us=theirs),
    )
    return ShapeBenchmark(shape="s", dims=[1], dtype="bf16", bytes_moved=1, **{scope: result})


def test_the_benchmark_stops_at_a_shape_slower_beyond_noise_in_the_scope_that_decides():
    wobble = [0.01 * (i % 3) for i in range(12)]
    for scope in ("graph", "eager"):  # eager decides only where no graph was timed
        slow = _timed([1.3 + w for w in wobble], [1.0 + w for w in wobble], scope)
        assert f"({scope}, 0.77" in BenchmarkStage._slower_beyond_noise(_stage(), slow, 16)
    both = _timed([1.0 + w for w in wobble], [1.0 + w for w in reversed(wobble)])
    both.eager = _timed([1.3 + w for w in wobble], [1.0 + w for w in wobble], "eager").eager
    assert BenchmarkStage._slower_beyond_noise(_stage(), both, 16) is None  # host cost alone does not reject
    even = _timed([1.0 + w for w in wobble], [1.0 + w for w in reversed(wobble)])
    faster = _timed([0.8 + w for w in wobble], [1.0 + w for w in wobble])
    assert BenchmarkStage._slower_beyond_noise(_stage(), even, 16) is None
    assert BenchmarkStage._slower_beyond_noise(_stage(), faster, 16) is None


def test_a_baselines_traceback_is_kept_as_its_context_and_exception():
    raised = (
        "raised:     handler(message)\n"
        '  File "/work/main/tools/evaluator/runner.py", line 229, in on_run\n'
        "    returned &= call(fn, args, out)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB\n"
    )
    assert benchmark._brief(raised) == "raised: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB"
    one_line = "graph batch 1: call 5 of a timed batch is wrong"
    assert benchmark._brief(one_line) == one_line


class _Clock:
    """A stand-in for the judge's clock: time moves only when a peer says it does."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _SlowDelivery:
    """A runner peer whose batch answers at once and whose `deliver` takes 1000 s of the judge's clock."""

    def __init__(self, clock: _Clock):
        self.asked: list[str] = []
        self.clock = clock
        self.proc = types.SimpleNamespace(pid=0)

    def resume(self):
        pass

    def pause(self):
        pass

    def send(self, message):
        self.asked.append(message["op"])

    def receive(self, deadline, what):
        self.clock.now += 1.0  # the batch itself
        return types.SimpleNamespace(ok=True, self_us=None)

    def ask(self, message, deadline, what=""):
        self.asked.append(message["op"])
        self.clock.now += 1000.0
        return types.SimpleNamespace(ok=True)


def _batch_of(name: str, monkeypatch):
    import torch

    from tools.evaluator.buffers import Arena
    from tools.evaluator.layout import Layout

    clock = _Clock()
    monkeypatch.setattr(benchmark.time, "perf_counter", clock)
    layout = Layout((torch.zeros(4, 8),), (torch.zeros(4, 8),), 2, False)
    device = torch.device("cpu")
    arenas = (
        Arena(layout.input_bytes, device, runner_writable=False),
        Arena(layout.output_bytes, device, runner_writable=True),
    )
    runner = _SlowDelivery(clock)
    seat = Seat(name, runner, layout=layout, arenas=arenas, plan=1)
    stage = _stage(cuda=False, clock=benchmark.PhaseClock(), deadline=time.monotonic() + 60, _sync=lambda: None)
    stage._snapshot_buffer = lambda seat: torch.empty(arenas[1].nbytes, dtype=torch.uint8)
    regions = [torch.ones(2, 4, 8)]
    return BenchmarkStage._batch(stage, seat, "graph", 2, regions), runner.asked


def test_a_delivered_yardstick_writes_its_results_off_the_clock(monkeypatch):
    batch, asked = _batch_of("torch", monkeypatch)  # the torch reference returns a fresh result: Delivered
    assert asked == ["replay", "deliver"]
    assert batch.reply is not None and batch.seconds == 1.0  # the batch, without the delivery after it


def test_a_candidate_writes_its_outputs_on_the_clock(monkeypatch):
    batch, asked = _batch_of("candidate", monkeypatch)
    assert asked == ["replay"] and batch.reply is not None and batch.seconds == 1.0


def _seat_timed(name: str, seconds: float, rounds: int = 6) -> Seat:
    seat = Seat(name, runner=None)
    seat.counts = {"graph": 100}
    seat.totals = {"eager": [], "graph": [seconds * (1 + 0.001 * i) for i in range(rounds)]}
    return seat


def _results(candidate_seconds: float, copy_seconds: float, op: str = "rope"):
    from kernels import registry
    from tools.evaluator.records import ShapeBenchmark

    stage = _stage(spec=registry.spec(op))
    record = ShapeBenchmark(shape="s", dims=[1], dtype="bf16", bytes_moved=2**27, ceiling_gbps=None)
    notes: list[str] = []
    seats = [_seat_timed("candidate", candidate_seconds), _seat_timed("copy", copy_seconds)]
    BenchmarkStage._results(stage, record, seats, {"graph": 100}, notes)
    return record, notes


def test_a_figure_far_above_the_copy_of_the_same_bytes_is_a_measurement_error():
    # The shape of the cheat that did 64 calls' work in one launch: 19.7x the copy's speed.
    record, notes = _results(candidate_seconds=0.001, copy_seconds=0.0197)
    assert record.status == "measurement_error"
    assert "bound of 1.10" in " ".join(notes)


def test_a_figure_just_past_the_ops_bound_is_a_measurement_error_and_one_under_it_is_not():
    over, _ = _results(candidate_seconds=1.0, copy_seconds=1.12)
    under, _ = _results(candidate_seconds=1.0, copy_seconds=1.08)
    assert over.status == "measurement_error"
    assert under.status == "ok" and abs(under.graph.fraction_of_copy - 1.08) < 0.01


def test_silu_mul_reads_twice_what_it_writes_and_has_a_wider_bound():
    record, _ = _results(candidate_seconds=1.0, copy_seconds=1.15, op="silu_mul")
    assert record.status == "ok"
    record, _ = _results(candidate_seconds=1.0, copy_seconds=1.25, op="silu_mul")
    assert record.status == "measurement_error"
