"""Child run under the profiler: one warm call, then one profiled call per shape.

ncu ... python -m tools.profile_worker REQUEST.json EVENTS.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from kernels import target as targets
from kernels.registry import spec as op_spec
from kernels.spec import parse_dtype
from tools.candidate import load_candidate
from tools.records import EvalRequest
from tools.worker import Events


def main(argv: list[str]) -> int:
    request = EvalRequest.model_validate_json(Path(argv[0]).read_text())
    events = Events(Path(argv[1]))
    targets.select(request.target)
    spec = op_spec(request.op)
    fn, _ = load_candidate(request.op, request.backend, request.candidate)
    marker = torch.zeros(1, dtype=torch.int32, device="cuda")
    cases = [(spec.shape(s), parse_dtype(d)) for d in request.dtypes for s in request.shapes]
    for i, (shape, dtype) in enumerate(cases):
        events.emit("progress", stage="profile", done=i, total=len(cases), label=shape.name)
        args = spec.make_inputs(shape.dims, dtype, request.seeds[0], "cuda")
        out = spec.empty_out(args)
        fn(*args, out=out)  # JIT and first-touch outside the profiled range
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        marker.fill_(i)  # separates this shape's kernels from the previous one's
        fn(*args, out=out)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    events.emit("done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
