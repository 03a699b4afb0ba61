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
from tools.evaluator.records import BASELINES, Baseline, EvalRecord
from tools.paths import PROJECT_ROOT
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
) -> tuple[list[EvalRecord], Path, list[str]]:
    """Evaluate each backend's kernel file for `op` into <out>/<gpu>/<op>.json and .md; returns the new records,
    the JSON's path and the backends whose earlier records the file kept.

    The file is rewritten after each backend: the records of backends not benched now stay, so a bench can
    be split over calls on a lent GPU, and a crash loses only the backend it was on.
    """
    env = collect_environment()
    folder = (out_dir or RESULTS_DIR) / gpu_slug(env)
    json_path = folder / f"{op}.json"
    earlier = [r for r in _earlier_records(json_path, op) if r.backend not in backends]  # read before any work
    records: list[EvalRecord] = []
    for backend in backends:
        records.append(evaluate(op, backend, baselines=baselines, on_event=on_event, **evaluate_kwargs))
        folder.mkdir(parents=True, exist_ok=True)
        _write(json_path, op, _ordered([*earlier, *records]), records[0].environment or env)
    return records, json_path, [r.backend for r in earlier]


def _earlier_records(path: Path, op: str) -> list[EvalRecord]:
    """The records an op's bench file holds now (none where there is no file)."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text())
        if data.get("op") != op:
            raise ValueError(f"it holds op {data.get('op')!r}")
        return [EvalRecord.model_validate(r) for r in data["records"]]
    except (ValueError, KeyError, TypeError) as err:
        raise RuntimeError(
            f"{path} exists but cannot be read as {op}'s bench records ({str(err).splitlines()[0][:200]}); "
            "move it away or pass --out, so its results are not overwritten unread"
        ) from err


def _ordered(records: list[EvalRecord]) -> list[EvalRecord]:
    rank = {name: i for i, name in enumerate(BENCH_BACKENDS)}
    return sorted(records, key=lambda r: rank.get(r.backend, len(rank)))


def _write(json_path: Path, op: str, records: list[EvalRecord], env) -> None:
    payload = {
        "op": op,
        "environment": env.model_dump(),
        # Generated sources are kept by `agent eval --json`; here they would only bloat the history.
        "records": [r.model_dump(exclude={"compile": {"sources"}}) for r in records],
    }
    json_path.write_text(json.dumps(payload, indent=1) + "\n")
    json_path.with_suffix(".md").write_text(bench_markdown(op, records) + "\n")
