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


def test_first_calls_run_one_thread_per_program_group(tmp_path):
    """Shapes that differ only in their leading dims share a thread; other groups run beside them."""
    import threading
    import time

    from kernels.registry import spec as op_spec
    from tools.records import CompileInfo, EvalRequest
    from tools.worker import Events, Worker

    rms = op_spec("rms_norm")
    names = [s.name for s in rms.shapes]
    request = EvalRequest(
        op="rms_norm", backend="tilelang", shapes=names, hidden_shapes=[], dtypes=["fp32"], seeds=[0],
        device="cpu", stages=["compile"],
    )  # fmt: skip
    worker = Worker(request, Events(tmp_path / "events.jsonl"))
    seen: dict[int, set[str]] = {}
    active = [0, 0]  # now, most at once
    lock = threading.Lock()

    def fake_kernel(x, weight, eps, *, out):
        with lock:
            seen.setdefault(x.shape[-1], set()).add(threading.current_thread().name)
            active[0] += 1
            active[1] = max(active)
        time.sleep(0.2)
        with lock:
            active[0] -= 1
        return out

    worker.fn = fake_kernel
    info = CompileInfo()
    cases = [(s, worker.dtypes[0]) for s in worker.shapes]
    worker._first_calls_in_parallel(cases, info)

    assert set(info.first_call_seconds) == {f"{n}:fp32" for n in names}
    assert len(seen) >= 2 and all(len(threads) == 1 for threads in seen.values())
    assert len({t for threads in seen.values() for t in threads}) == len(seen)
    assert active[1] >= 2  # the groups overlapped
