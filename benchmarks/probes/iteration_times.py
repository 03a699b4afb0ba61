"""Seconds per iteration of `agent optimize` runs, and where an evaluation's benchmark spent them.

    python benchmarks/probes/iteration_times.py RUN_DIR [RUN_DIR ...]

Per iteration: the wall clock from its proposal to its decision (events.jsonl, whole seconds), the
evaluation's stages (eval.json) and the benchmark's phases, largest first.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path


def _time(event: dict) -> dt.datetime:
    return dt.datetime.fromisoformat(event["time"])


def summarise(run: Path) -> list[str]:
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines() if line.strip()]
    started = {str(e["iteration"]): _time(e) for e in events if e.get("event") == "propose_start"}
    decided = {str(e["iteration"]): _time(e) for e in events if e.get("event") == "decide"}
    lines = [f"== {run.name}"]
    for folder in sorted((run / "iterations").iterdir()):
        record = json.loads((folder / "eval.json").read_text())
        stages = {s["name"]: s for s in record["stages"]}
        iteration = str(int(folder.name))
        wall = (decided[iteration] - started[iteration]).total_seconds() if iteration in started else None
        bench = stages.get("benchmark", {})
        phases = sorted((bench.get("phases") or {}).items(), key=lambda kv: -kv[1])
        timed = (bench.get("message") or "").split(";")[0]
        lines.append(
            f"{folder.name}  wall {'-' if wall is None else f'{wall:.0f} s'}  eval {record['seconds']:.1f} s  "
            + "  ".join(f"{name} {s.get('seconds') or 0:.1f}" for name, s in stages.items())
            + f"  | {timed}"
        )
        lines.append(
            "      benchmark: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in phases if seconds >= 0.1)
        )
    return lines


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print("\n".join(summarise(Path(arg))))
