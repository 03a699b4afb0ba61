"""`agent bench`: every backend on an op's named shapes, into the op's results table (tools/results.py).

Its baselines are torch eager, torch.compile and Liger-Kernel: Liger is timed wherever
liger-kernel is importable (tools/liger.py) and noted as unavailable where it is not.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tools.env import collect_environment, gpu_slug
from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions
from tools.evaluator.records import BASELINES, EvalRecord
from tools.evaluator.zygote import Zygotes
from tools.paths import PROJECT_ROOT
from tools.results import ResultTable
from workbench.kernels.backends import EDITABLE

RESULTS_DIR = PROJECT_ROOT / "benchmarks" / "results"


def run_bench(
    op: str,
    backends: tuple[str, ...] = EDITABLE,
    options: EvalOptions | None = None,
    *,
    out_dir: Path | None = None,
    on_event: Callable[[dict], None] | None = None,
) -> tuple[list[EvalRecord], Path, list[str]]:
    """Evaluate each backend's kernel file for `op` into <out>/<gpu>/<op>.json and .md; returns the new records,
    the JSON's path and the backends whose earlier results the file kept. `options` default to every baseline.

    The file is rewritten after each backend: the results of backends not benched now stay, so a bench can
    be split over calls on a lent GPU, and a crash loses only the backend it was on. A bench decides nothing:
    the dtypes stage (for a candidate the rule may accept) is not run.
    """
    options = (options or EvalOptions(baselines=BASELINES)).model_copy(update={"other_dtypes": False})
    env = collect_environment()
    json_path = (out_dir or RESULTS_DIR) / gpu_slug(env) / f"{op}.json"
    earlier = ResultTable.load(json_path, op) if json_path.exists() else ResultTable(op=op)  # before any work
    kept = [b.backend for b in earlier.benches if b.backend not in backends]
    records: list[EvalRecord] = []
    with Zygotes() as zygotes:  # torch imported once for the runners of every backend
        for backend in backends:
            records.append(evaluate(op, backend, None, options, on_event=on_event, zygotes=zygotes))
            table = earlier.merged(ResultTable.from_records(op, records), order=EDITABLE)
            table.save(json_path)
    return records, json_path, kept
