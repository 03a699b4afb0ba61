"""The judge's first run on the GPU host: A/A evaluations and three timing cheats.

    source .gpu-bundle/enter.sh && OUT=/tmp/out python3 scripts/judge_smoke.py

Its output from the one run made (2026-12-01, against the judge's first version, whose benchmark
stage still verified outputs one input set at a time: 42 s per shape) is
benchmarks/results/nvidia-h200/judge/smoke.log; docs/log.md quotes it. The run reached the first
cheat before the call's time limit.
"""

import os
import time
from pathlib import Path

from kernels.rope.candidates import GOOD_ROPE as GOOD
from tools.evaluator.evaluate import evaluate

OUT = Path(os.environ.get("OUT", "/tmp/out"))


def show(tag: str, record) -> None:
    print(f"=== {tag}: {record.status} in {record.seconds:.1f}s: {record.message[:300]}")
    for stage in record.stages:
        print(f"   {stage.name:<12} {stage.status:<7} {stage.seconds:6.1f}s {stage.message[:200]}")
    print("   confinement", record.confinement.model_dump() if record.confinement else None)
    for b in record.benchmark:
        for name in ("eager", "graph"):
            scope = b.scope(name)
            if not scope or not scope.candidate:
                continue
            c, inc = scope.candidate, scope.speedup_vs_incumbent
            vs_inc = inc and (round(inc.median, 4), round(inc.low, 4), round(inc.high, 4))
            print(
                f"   {b.shape:<28} {name:<5} {c.median_us:9.2f}us [{c.ci_low_us:.2f},{c.ci_high_us:.2f}] "
                f"n={c.calls_per_batch} copy={scope.fraction_of_copy} vs_torch={scope.speedup('torch')} "
                f"vs_comp={scope.speedup('compiled')} vs_inc={vs_inc} self={scope.self_reported_us} err={scope.errors}"
            )
        if b.note:
            print("   note", b.note[:300])
    (OUT / f"{tag}.json").write_text(record.model_dump_json(indent=1))


SIDE_STREAM = GOOD.replace(
    "def rope(x, sin, cos, *, out=None):",
    "_s = None\ntorch.cuda.synchronize = lambda *a, **k: None\n"
    "def rope(x, sin, cos, *, out=None):\n    global _s\n    _s = _s or torch.cuda.Stream()\n"
    "    with torch.cuda.stream(_s):\n        return _rope(x, sin, cos, out=out)\n\n"
    "def _rope(x, sin, cos, *, out=None):",
)
HOG = GOOD.replace("    return out\n", "    torch.cuda._sleep(200_000_000)\n    return out\n")
SKIPS = GOOD.replace(
    "def rope(x, sin, cos, *, out=None):",
    "_n = [0]\ndef rope(x, sin, cos, *, out=None):\n    _n[0] += 1\n"
    "    if _n[0] > 50 and _n[0] % 2:\n        return out",
)


def main() -> None:
    start = time.time()
    tilelang = Path("kernels/rope/tilelang.py")
    shapes = ["llama3-8b/prefill2048/q", "llama3-8b/prefill16384/q", "decode8"]
    record = evaluate(
        "rope", "tilelang", tilelang, shapes=shapes, incumbent=tilelang, baselines=("eager", "compiled"), timeout_s=500
    )
    show("aa-rope-tilelang", record)
    nine = Path("kernels/rms_norm/ninetoothed.py")
    shapes = ["llama3-8b/prefill2048", "decode8"]
    record = evaluate(
        "rms_norm", "ninetoothed", nine, shapes=shapes, incumbent=nine, baselines=("eager",), timeout_s=500
    )
    show("aa-rms-nt", record)
    good = Path("/tmp/good_rope.py")
    good.write_text(GOOD)
    for name, source in {"deferred-side-stream": SIDE_STREAM, "hog-after": HOG, "skips-every-other": SKIPS}.items():
        path = Path(f"/tmp/cheat_{name}.py")
        path.write_text(source)
        shapes = ["llama3-8b/prefill2048/q", "decode8/q"]
        record = evaluate(
            "rope",
            "torch",
            path,
            shapes=shapes,
            incumbent=good,
            baselines=("eager",),
            timeout_s=300,
            static_check=False,
        )
        show("cheat-" + name, record)
    print("total", time.time() - start)


if __name__ == "__main__":
    main()
