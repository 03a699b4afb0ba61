"""`agent bench`: every backend on an op's named shapes, results as JSON plus a markdown table.

Its baselines are torch eager, torch.compile and Liger-Kernel: Liger is timed wherever
liger-kernel is importable (tools/liger.py) and noted as unavailable where it is not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tools.env import collect_environment, gpu_slug
from tools.evaluator.evaluate import evaluate
from tools.paths import PROJECT_ROOT
from tools.records import BASELINES, Baseline, EvalRecord
from tools.report import bench_markdown

RESULTS_DIR = PROJECT_ROOT / "benchmarks" / "results"
BENCH_BACKENDS = ("tilelang", "ninetoothed", "maca_cpp")


def run_bench(
    op: str,
    backends: tuple[str, ...] = BENCH_BACKENDS,
    *,
    baselines: tuple[Baseline, ...] = BASELINES,
    out_dir: Path | None = None,
    on_event: Callable[[dict], None] | None = None,
    **evaluate_kwargs,
) -> tuple[list[EvalRecord], Path]:
    """Evaluate each backend's kernel file for `op`; write <out>/<gpu>/<op>.json and .md."""
    records = [evaluate(op, backend, baselines=baselines, on_event=on_event, **evaluate_kwargs) for backend in backends]
    env = records[0].environment or collect_environment()
    folder = (out_dir or RESULTS_DIR) / gpu_slug(env)
    folder.mkdir(parents=True, exist_ok=True)
    payload = {
        "op": op,
        "environment": env.model_dump(),
        # Generated sources are kept by `agent eval --json`; here they would only bloat the history.
        "records": [r.model_dump(exclude={"compile": {"sources"}}) for r in records],
    }
    json_path = folder / f"{op}.json"
    json_path.write_text(json.dumps(payload, indent=1) + "\n")
    (folder / f"{op}.md").write_text(bench_markdown(op, records) + "\n")
    return records, json_path
