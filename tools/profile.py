"""Profile stage: hardware counters per shape from `ncu` (NVIDIA) or `mcProfiler` (MetaX).

The candidate runs in a child under the profiler, with profiling switched on
only around one call per shape (after a warm-up call, so JIT work is not
profiled). A one-element fill between shapes marks where each shape's kernels
start. ncu is run with `--clock-control none`: the lent GPUs must keep their
clocks (and ncu's default locking is refused there).
"""

from __future__ import annotations

import csv
import io
import shutil
import sys
import time

from tools.records import EvalRecord, EvalRequest, ShapeProfile, StageResult
from tools.sandbox import run_request

NCU_METRICS = {
    "duration_us": "gpu__time_duration.sum",
    "dram_throughput_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers_per_thread": "launch__registers_per_thread",
    "local_loads": "smsp__sass_inst_executed_op_local_ld.sum",
    "local_stores": "smsp__sass_inst_executed_op_local_st.sum",
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


def _number(text: str) -> float | None:
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
        duration = _number(values.get("duration_us", ""))
        if duration is not None:
            duration *= TIME_UNITS_IN_US.get(unit, 1.0)
        local = [_number(values.get(k, "")) for k in ("local_loads", "local_stores")]
        registers = _number(values.get("registers_per_thread", ""))
        name, dtype = shapes[shape_index]
        profiles.append(
            ShapeProfile(
                shape=name,
                dtype=dtype,
                kernel=kernel[:200],
                duration_us=duration,
                dram_throughput_pct=_number(values.get("dram_throughput_pct", "")),
                achieved_occupancy_pct=_number(values.get("achieved_occupancy_pct", "")),
                registers_per_thread=int(registers) if registers is not None else None,
                local_memory_spill_requests=sum(v for v in local if v is not None) if any(local) else 0.0,
                raw=values,
            )
        )
    return profiles


def profile_candidate(record: EvalRecord, request: EvalRequest, timeout_s: float, on_event=None) -> StageResult:
    """Run the profiler over the record's shapes; fills `record.profile`."""
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
    shapes = request.shapes[:MAX_PROFILED_SHAPES]
    profile_request = request.model_copy(update={"shapes": shapes, "hidden_shapes": [], "random_hidden_dims": None})
    outcome, output = run_request(
        "tools.profile_worker", profile_request, timeout_s, on_event=on_event, prefix=ncu_command(executable)
    )
    pairs = [(s, d) for d in request.dtypes for s in shapes]
    record.profile = parse_ncu_csv(output, pairs)
    seconds = time.monotonic() - start
    if outcome.returncode != 0 or not record.profile:
        tail = " | ".join(output.strip().splitlines()[-3:])[-500:]
        return StageResult(
            name="profile",
            status="failed",
            message=f"ncu {outcome.how_it_ended}; no kernel rows parsed; last output: {tail}",
            seconds=seconds,
        )
    return StageResult(
        name="profile",
        status="ok",
        message=f"{len(record.profile)} kernel launches profiled",
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
    print(" ".join(ncu_command()) + " " + sys.executable + " -m tools.profile_worker REQUEST EVENTS")
