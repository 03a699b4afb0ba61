"""The benchmark stage's own rules, without runners: what is verified, and when rounds go on."""

from __future__ import annotations

import random
import time
import types

from tools.evaluator import figures, seats, timer
from tools.evaluator.benchmark import more_rounds, slower_beyond_noise
from tools.evaluator.seats import Seat
from tools.evaluator.verify import VERIFY_BYTES, VERIFY_CALLS, sample_calls


def _more_rounds(seats: list[Seat], rounds: int, cuda: bool = True) -> bool:
    return more_rounds(seats, rounds, time.monotonic(), cuda=cuda, batches=10, cases=16)


def test_small_batches_are_verified_call_by_call():
    assert sample_calls(random.Random(0), 5, 1024) == [0, 1, 2, 3, 4]


def test_a_long_batch_is_verified_on_a_sample_drawn_by_the_judge():
    sample = sample_calls(random.Random(0), 1000, 1024)
    assert len(sample) == VERIFY_CALLS and sample == sorted(set(sample))
    assert sample != list(range(VERIFY_CALLS))  # drawn, not the first calls
    assert sample_calls(random.Random(1), 1000, 1024) != sample


def test_large_outputs_are_sampled_by_bytes_but_at_least_one_call():
    per_call = VERIFY_BYTES // 2
    assert len(sample_calls(random.Random(0), 8, per_call)) == 2
    assert len(sample_calls(random.Random(0), 8, 4 * VERIFY_BYTES)) == 1


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
    assert _more_rounds(_pair(0.0, 0.2), 12)


def test_a_noisy_eager_scope_alone_buys_no_rounds():
    assert not _more_rounds(_pair(0.2, 0.0), 12)


def test_no_extra_rounds_past_the_cap_or_on_the_cpu():
    assert not _more_rounds(_pair(0.0, 0.2), 30)
    assert not _more_rounds(_pair(0.0, 0.2), 12, cuda=False)


def test_a_shape_already_slower_beyond_noise_buys_no_rounds():
    assert _more_rounds(_pair(0.0, 0.03), 12)
    assert not _more_rounds(_pair(0.0, 0.03, slower=0.5), 12)


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
        assert f"({scope}, 0.77" in slower_beyond_noise(slow, 16)
    both = _timed([1.0 + w for w in wobble], [1.0 + w for w in reversed(wobble)])
    both.eager = _timed([1.3 + w for w in wobble], [1.0 + w for w in wobble], "eager").eager
    assert slower_beyond_noise(both, 16) is None  # host cost alone does not reject
    even = _timed([1.0 + w for w in wobble], [1.0 + w for w in reversed(wobble)])
    faster = _timed([0.8 + w for w in wobble], [1.0 + w for w in wobble])
    assert slower_beyond_noise(even, 16) is None
    assert slower_beyond_noise(faster, 16) is None


def test_a_baselines_traceback_is_kept_as_its_context_and_exception():
    raised = (
        "raised:     handler(message)\n"
        '  File "/work/main/tools/evaluator/runner.py", line 229, in on_run\n'
        "    returned &= call(fn, args, out)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB\n"
    )
    assert seats.brief(raised) == "raised: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB"
    one_line = "graph batch 1: call 5 of a timed batch is wrong"
    assert seats.brief(one_line) == one_line


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


class _CpuClock:
    """The judge's device clock on the CPU: nothing to flush, probe or wait for."""

    device = None
    cuda = False

    def flush(self):
        pass

    def sync(self):
        pass

    def stop(self):
        pass


def _batch_of(name: str, monkeypatch):
    import torch

    from tools.evaluator.buffers import Arena
    from tools.evaluator.layout import Layout
    from tools.evaluator.stages import Deadlines, PhaseClock

    clock = _Clock()
    monkeypatch.setattr(timer.time, "perf_counter", clock)
    layout = Layout((torch.zeros(4, 8),), (torch.zeros(4, 8),), 2, False)
    device = torch.device("cpu")
    arenas = (
        Arena(layout.input_bytes, device, runner_writable=False),
        Arena(layout.output_bytes, device, runner_writable=True),
    )
    runner = _SlowDelivery(clock)
    seat = Seat(name, runner, layout=layout, arenas=arenas, plan=1)
    batches = timer.BatchTimer(_CpuClock(), PhaseClock(), Deadlines(60, {}), [], None)
    batches.snapshot_buffer = lambda seat: torch.empty(arenas[1].nbytes, dtype=torch.uint8)
    regions = [torch.ones(2, 4, 8)]
    return batches.batch(seat, "graph", 2, regions), runner.asked


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
    from tools.evaluator.records import ShapeBenchmark
    from workbench.kernels import registry

    record = ShapeBenchmark(shape="s", dims=[1], dtype="bf16", bytes_moved=2**27, ceiling_gbps=None)
    notes: list[str] = []
    timed = [_seat_timed("candidate", candidate_seconds), _seat_timed("copy", copy_seconds)]
    figures.scope_results(record, timed, {"graph": 100}, notes, registry.spec(op), cuda=True)
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
