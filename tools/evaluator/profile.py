"""Profile stage: hardware counters per shape from `ncu` (NVIDIA) or `mcProfiler` (MetaX).

The candidate's runner runs under the profiler, with profiling switched on
only around one call per shape (after a warm-up call, so JIT work is not
profiled). A one-element fill between shapes marks where each shape's kernels
start. ncu is run with `--clock-control none`: the lent GPUs must keep their
clocks (and ncu's default locking is refused there).
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import sys
import time
from pathlib import Path

from tools.evaluator.records import EvalRecord, ShapeProfile, StageResult

NCU_METRICS = {
    "duration_us": "gpu__time_duration.sum",
    "dram_throughput_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers_per_thread": "launch__registers_per_thread",
    "local_loads": "smsp__sass_inst_executed_op_local_ld.sum",
    "local_stores": "smsp__sass_inst_executed_op_local_st.sum",
    # Kept in `raw` only: what a miss against the copy is made of (bytes really moved, launch shape, waves).
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
    "sm_throughput_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "grid_size": "launch__grid_size",
    "block_size": "launch__block_size",
    "waves_per_sm": "launch__waves_per_multiprocessor",
}
MARKER = "FillFunctor"
TIME_UNITS_IN_US = {
    "ns": 1e-3,
    "nsecond": 1e-3,
    "us": 1.0,
    "usecond": 1.0,
    "ms": 1e3,
    "msecond": 1e3,
    "s": 1e6,
}
# One profiled call per shape is plenty; ncu replays each kernel several times.
MAX_PROFILED_SHAPES = 12
# A profiler that hangs (ncu unable to reach its target) costs this much at most, not the evaluation's limit.
PROFILE_TIMEOUT_S = 240.0


def ncu_command(ncu: str = "ncu") -> list[str]:
    return [
        ncu,
        "--clock-control",
        "none",
        "--profile-from-start",
        "off",
        "--target-processes",
        "all",
        "--csv",
        "--page",
        "raw",
        "--metrics",
        ",".join(NCU_METRICS.values()),
    ]


def parse_number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except (TypeError, ValueError):
        return None


def parse_ncu_csv(text: str, shapes: list[tuple[str, str]]) -> list[ShapeProfile]:
    """Rows of `ncu --csv --page raw` output, grouped by the marker kernels into `shapes`."""
    start = text.find('"ID"')
    if start < 0:
        return []
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, units, body = rows[0], rows[1], rows[2:]
    column = {name: i for i, name in enumerate(header)}
    profiles: list[ShapeProfile] = []
    shape_index = -1
    for row in body:
        if len(row) != len(header):
            continue
        kernel = row[column["Kernel Name"]]
        if MARKER in kernel:
            shape_index += 1
            continue
        if not 0 <= shape_index < len(shapes):
            continue
        values = {key: row[column[metric]] for key, metric in NCU_METRICS.items() if metric in column}
        unit = units[column[NCU_METRICS["duration_us"]]] if NCU_METRICS["duration_us"] in column else ""
        duration = parse_number(values.get("duration_us", ""))
        if duration is not None:
            duration *= TIME_UNITS_IN_US.get(unit, 1.0)
        local = [parse_number(values.get(k, "")) for k in ("local_loads", "local_stores")]
        registers = parse_number(values.get("registers_per_thread", ""))
        name, dtype = shapes[shape_index]
        profiles.append(
            ShapeProfile(
                shape=name,
                dtype=dtype,
                kernel=kernel[:200],
                duration_us=duration,
                dram_throughput_pct=parse_number(values.get("dram_throughput_pct", "")),
                achieved_occupancy_pct=parse_number(values.get("achieved_occupancy_pct", "")),
                registers_per_thread=int(registers) if registers is not None else None,
                local_memory_spill_requests=sum(v for v in local if v is not None) if any(local) else 0.0,
                raw=values,
            )
        )
    return profiles


def profile_candidate(record: EvalRecord, request, emit=None, uids=None) -> StageResult:
    """Run the candidate's runner under the profiler over the record's shapes; fills `record.profile`.

    ncu writes its CSV to a file of the judge's (the runner cannot write there when it runs as its
    own uid), and what it reports is for diagnosis: no decision uses it. `request`: the judge's
    (tools/evaluator/judge.py: JudgeRequest); `uids`: the evaluation's pool (confine.UidPool).
    """
    import tempfile

    import torch

    from tools.evaluator import confine
    from tools.evaluator.buffers import Arena
    from tools.evaluator.layout import Layout
    from tools.evaluator.lineup import cache_key, file_contestant
    from tools.evaluator.process import RunnerFailed, RunnerProcess
    from workbench.kernels import registry
    from workbench.kernels.spec import parse_dtype

    start = time.monotonic()
    tool = "ncu" if (record.environment and record.environment.target == "cuda") else "mcProfiler"
    if request.device != "cuda":
        return StageResult(name="profile", status="skipped", message="profiling needs a GPU")
    executable = shutil.which(tool)
    if executable is None:
        return StageResult(name="profile", status="skipped", message=f"{tool} is not on PATH")
    if tool != "ncu":
        return StageResult(
            name="profile",
            status="skipped",
            message="mcProfiler summaries are not wired in yet; run mcProfiler by hand on MetaX",
        )
    spec = registry.spec(request.op)
    shapes = list(request.shapes[:MAX_PROFILED_SHAPES])
    pairs = [(s, d) for d in request.options.dtypes for s in shapes]
    # In the runners' own root: the only folder a sandboxed ncu and its target may write (ncu writes the CSV).
    folder = tempfile.mkdtemp(prefix="profile-", dir=confine.runner_root())
    log = f"{folder}/ncu.csv"
    profiler = [*ncu_command(executable), "--log-file", log]
    contestant = file_contestant(request.op, request.backend, request.candidate, request.device)
    runner = RunnerProcess(
        "candidate",
        contestant,
        device="cuda",
        target=request.options.target,
        cache_key=cache_key(request.backend, "candidate", contestant),
        prefix=profiler,  # under ncu: exec'd, never forked, and allowed loopback TCP, which ncu talks over
        pausing=False,  # stopping the group between requests would stop ncu too; nothing is timed here
        uids=uids,
    )
    arenas: list[Arena] = []
    try:
        deadline = time.monotonic() + min(request.options.timeout_s, PROFILE_TIMEOUT_S)
        hello = runner.wait_hello(deadline)
        if not hello.ok:
            raise RunnerFailed(hello.error or "the candidate failed to import")
        plans = []
        for i, (shape, dtype_name) in enumerate(pairs):
            args = spec.make_inputs(shape.dims, parse_dtype(dtype_name), i + 1, "cuda")
            outs = spec.as_outputs(spec.empty_out(args))
            layout = Layout(args, outs, 1, spec.multi_output)
            plan_id = 1000 + i
            # Host arenas: the runner copies them into memory of its own before the profiled call, so ncu's
            # replay never meets memory mapped from the judge (VMM handles from another process).
            pair = runner.share(layout, torch.device("cpu"), (2 * i + 1, 2 * i + 2), plan_id, deadline)
            arenas += pair
            layout.fill(tuple(arena.tensor for arena in pair), [args])
            plans.append(plan_id)
        reply = runner.ask({"op": "profile", "plans": plans}, deadline, what="profiling")
        ok = reply.ok
        error = reply.error
    except RunnerFailed as err:
        ok, error = False, str(err)
    finally:
        runner.close()
        for arena in arenas:
            arena.close()
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    if os.environ.get("KW_NCU_CSV"):  # benchmarks/probes/ncu_sample.py: the raw output, for the parser's fixture
        Path(os.environ["KW_NCU_CSV"]).write_text(text)
    shutil.rmtree(folder, ignore_errors=True)
    record.profile = parse_ncu_csv(text, [(s.name, d) for s, d in pairs])
    seconds = time.monotonic() - start
    if not ok or not record.profile:
        tail = " | ".join(text.strip().splitlines()[-3:])[-300:]
        return StageResult(
            name="profile",
            status="failed",
            message=f"ncu: {error or 'no kernel rows parsed'}; last output: {tail}"[:800],
            seconds=seconds,
        )
    return StageResult(
        name="profile",
        status="ok",
        message=f"{len(record.profile)} kernel launches profiled (ncu, diagnosis only)",
        seconds=seconds,
    )


def summarise(profiles: list[ShapeProfile]) -> str:
    """A few lines for a person or an LLM: where the time went and why."""
    lines = []
    for p in profiles:
        lines.append(
            f"{p.shape} {p.dtype} {p.kernel[:40]}: {p.duration_us or 0:.1f} us, "
            f"DRAM {p.dram_throughput_pct or 0:.0f}%, occupancy {p.achieved_occupancy_pct or 0:.0f}%, "
            f"{p.registers_per_thread} regs/thread, {p.local_memory_spill_requests or 0:.0f} local-memory instructions"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - convenience: print the ncu command line
    print(" ".join(ncu_command()) + " " + sys.executable + " -m tools.evaluator.runner ...")
