"""Run the NineToothed kernels on a CPU under Triton's interpreter, in a child process.

Why a child process. `TRITON_INTERPRET=1` is read when `triton.jit` decorates a
function, and making the kernels run on a CPU-only machine needs process-wide
patches (below). Set in the pytest process, both would reach every other test
that imports Triton or TileLang, and on the GPU host they would turn the CUDA
tests into interpreter runs on a made-up device. So `run_cases` starts
`python -m tests.kernels.ninetoothed_interpreter` with `TRITON_INTERPRET=1` in
its environment (set before anything imports Triton): two children side by
side, each taking whole operators. A child pays the import cost once, runs its
cases, saves the outputs with `torch.save` and exits, taking the patches with it.
The checks against the reference stay in the test file, in the pytest process.

What the child patches, in its own memory only (no installed file is edited):

1. Triton's active driver. `ninetoothed.make` asks
   `triton.runtime.driver.active` for the current device and its properties
   (`calculate_default_configs` reads `max_shared_mem`, `CodeGenerator` reads
   `max_num_regs`), even when num_warps and num_stages are given. With no GPU
   Triton has no active driver and raises, interpreter or not. When that
   happens, `install` sets a stand-in through Triton's own
   `driver.set_active`, reporting an H200's numbers; where a real driver
   exists (the GPU host) it is left alone.
2. Constexpr parameters. NineToothed writes them as
   `name: triton.language.constexpr`; the interpreter recognises only the
   spellings `constexpr` and `tl.constexpr` (it sees the annotation as the string
   "triton.language.constexpr"), so it converted them to tensors and `tl.arange`
   rejected them ("arange's arguments must be of type
   tl.constexpr"). The kernels in kernels/ use concrete tile sizes and have no
   such parameter, but ntops-style kernels (constexpr shape symbols) do; the
   patch marks those parameters constexpr so such a candidate runs here too.
3. Scalars as loop bounds on Triton 3.6 with NumPy 2.4 (see
   `_index_with_one_element_arrays`); Triton 3.9 needs no help there.
4. The interpreter's integer-overflow checks are switched off: each integer
   op in NineToothed's index arithmetic otherwise costs about five more
   interpreted ops (the kernels ran 3-4x slower), and test tensors are far
   from int32 limits.
5. fp32 -> bf16 conversions round to nearest even, as on the GPU
   (`cvt.rn.bf16.f32` for `tl.cast` and stores). The interpreter truncates
   them (Triton 3.9's `_convert_float` with no rounding mode), which is 1 ulp
   off half the time: within rms_norm's tolerance, but add_rms_norm's sum must
   be exactly the rounded x + residual.

Not covered: anything the interpreter does not model (warps, pipelining,
timing), and code that only fails when compiled; the GPU tests cover those.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import os
import pathlib
import subprocess
import sys
import time
from typing import Any

import torch

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
CHILD_MODULE = "tests.kernels.ninetoothed_interpreter"

# Device properties the stand-in driver reports (an H200's).
_DEVICE_PROPERTIES = {
    "max_shared_mem": 232448,
    "max_num_regs": 65536,
    "multiprocessor_count": 132,
    "warpSize": 32,
}


@dataclasses.dataclass(frozen=True)
class Case:
    """One call of a NineToothed op in the child.

    op: an operator ("rope", "rms_norm", "add_rms_norm": kernels/<op>/ninetoothed.py), or "probe_constexpr".
    dims, dtype, seed: passed to the op's `SPEC.make_inputs` (dtype by name: bf16, fp16, fp32).
    out: "nan" passes NaN-filled `out=` buffer(s); "none" lets the op allocate.
    layout: "contiguous"; "noncontiguous" (x with the same values and shape, transposed
        strides); "leading_dims" (x viewed as [2, rows // 2, hidden], rms_norm only).
    config: entries of the module's CONFIG to override for this call only.
    tables: rope and rope_qk only: "DTYPE+ROWS" gives sin/cos in that dtype with ROWS more rows than seq,
        as the MetaX camp's Llama builds them ("" keeps make_inputs' fp32 tables of seq rows).
    """

    id: str
    op: str
    dims: tuple[int, ...]
    dtype: str = "fp32"
    seed: int = 0
    out: str = "nan"
    layout: str = "contiguous"
    config: dict[str, int] = dataclasses.field(default_factory=dict)
    tables: str = ""


def case_inputs(case: Case) -> tuple:
    """The op's inputs for `case` (the child runs on them; the test recomputes them for the reference)."""
    from workbench.kernels.spec import parse_dtype

    module = importlib.import_module(f"workbench.kernels.{case.op}.spec")
    args = module.SPEC.make_inputs(tuple(case.dims), parse_dtype(case.dtype), case.seed, "cpu")
    if not case.tables:
        return args
    from workbench.kernels.rope.spec import rope_tables

    dtype, extra = case.tables.split("+")
    seq, head_dim = case.dims[1], case.dims[-1]
    sin, cos = rope_tables(torch.arange(3, 3 + seq + int(extra)), head_dim)
    return (*args[:-2], sin.to(parse_dtype(dtype)), cos.to(parse_dtype(dtype)))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one case did: its result, or the exception it raised (type name and message)."""

    output: torch.Tensor | None
    error: str | None
    message: str
    returned_out: bool
    inputs_unchanged: bool
    seconds: float


# ---------------------------------------------------------------- parent side


def run_cases(cases: list[Case], workdir: pathlib.Path, workers: int = 2, timeout: float = 300.0) -> dict[str, Outcome]:
    """Run `cases` under the interpreter in `workers` child processes side by side; outcomes by case id.

    A child takes whole ops (rope in one, rms_norm in the other), so each makes only its own kernels.
    """
    ops = list(dict.fromkeys(case.op for case in cases))
    slot = {op: index % workers for index, op in enumerate(ops)}
    groups: dict[int, list[Case]] = {}
    for case in cases:
        groups.setdefault(slot[case.op], []).append(case)
    children = [_start_child(f"child{index}", group, workdir) for index, group in groups.items()]
    outcomes: dict[str, Outcome] = {}
    for process, results_path in children:
        outcomes.update(_finish_child(process, results_path, timeout))
    return outcomes


def _start_child(name: str, cases: list[Case], workdir: pathlib.Path) -> tuple[subprocess.Popen, pathlib.Path]:
    cases_path = workdir / f"{name}-cases.json"
    results_path = workdir / f"{name}-results.pt"
    cases_path.write_text(json.dumps([dataclasses.asdict(case) for case in cases]))
    env = dict(os.environ, TRITON_INTERPRET="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(REPO_ROOT), env.get("PYTHONPATH"))))
    command = [sys.executable, "-m", CHILD_MODULE, str(cases_path), str(results_path)]
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return process, results_path


def _finish_child(process: subprocess.Popen, results_path: pathlib.Path, timeout: float) -> dict[str, Outcome]:
    try:
        log, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        log, _ = process.communicate()
        raise RuntimeError(f"interpreter child timed out after {timeout:g} s:\n{log[-4000:]}") from None
    if process.returncode != 0 or not results_path.exists():
        raise RuntimeError(f"interpreter child failed (exit {process.returncode}):\n{log[-4000:]}")
    saved = torch.load(results_path, weights_only=False)
    return {case_id: Outcome(**fields) for case_id, fields in saved.items()}


# ----------------------------------------------------------------- child side


def install() -> None:
    """Make NineToothed kernels runnable under Triton's interpreter in this process (see module doc)."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        raise RuntimeError("set TRITON_INTERPRET=1 in the environment before Python imports triton")
    import triton
    from triton.runtime import interpreter

    _install_driver(triton.runtime.driver)
    _recognise_constexpr_annotations(interpreter.GridExecutor)
    _index_with_one_element_arrays(interpreter)
    _disable_overflow_checks(interpreter)
    _round_bf16_to_nearest_even(interpreter)


class _InterpreterDriver:
    """Answers the two device queries NineToothed makes while generating a kernel."""

    class utils:  # lower case: mirrors `driver.active.utils`
        @staticmethod
        def get_device_properties(device: int) -> dict[str, int]:
            return dict(_DEVICE_PROPERTIES)

    def get_current_device(self) -> int:
        return 0


def _install_driver(driver_config: Any) -> None:
    try:
        driver_config.active  # noqa: B018 (creating the driver is the check)
    except RuntimeError:  # "0 active drivers": no GPU here
        driver_config.set_active(_InterpreterDriver())


def _recognise_constexpr_annotations(grid_executor: type) -> None:
    original_init = grid_executor.__init__

    def __init__(self, fn, arg_names, *args, **kwargs):
        original_init(self, fn, arg_names, *args, **kwargs)
        annotations = inspect.get_annotations(fn)
        spelled_out = {name for name, ty in annotations.items() if str(ty).endswith("constexpr")}
        self.constexprs = [name for name in arg_names if name in spelled_out or name in self.constexprs]

    grid_executor.__init__ = __init__


def _index_with_one_element_arrays(interpreter: Any) -> None:
    """Let a scalar tensor be a loop bound: `for i in range(x.shape[0])` in the chunked rms_norm.

    Triton 3.6's interpreter (the GPU host's) turns a scalar into an int with
    `int(array([v]))`, which NumPy 2.4 rejects ("only 0-dimensional arrays can be
    converted to Python scalars"); Triton 3.9 squeezes first. The interpreter sets
    `tensor.__index__` around each launch, so the fix is applied right after it.
    """
    original = interpreter._patch_lang_tensor

    def index(self) -> int:
        return int(self.handle.data.item())

    def _patch_lang_tensor(tensor, *args, **kwargs):
        original(tensor, *args, **kwargs)
        tensor.__index__ = index

    interpreter._patch_lang_tensor = _patch_lang_tensor


def _disable_overflow_checks(interpreter: Any) -> None:
    builder = interpreter.interpreter_builder
    if hasattr(builder.options, "sanitize_overflow"):
        builder.options = dataclasses.replace(builder.options, sanitize_overflow=False)


def _round_bf16_to_nearest_even(interpreter: Any) -> None:
    """fp32 -> bf16 as the GPU converts (round to nearest, ties to even), through torch; other casts unchanged."""
    import numpy as np
    import triton.language as tl

    original = getattr(interpreter, "_convert_float", None)
    if original is None:
        return
    toward_zero = interpreter._ir.ROUNDING_MODE.RTZ

    def _convert_float(input, input_dtype, output_dtype, rounding_mode):
        if input_dtype == tl.float32 and output_dtype == tl.bfloat16 and rounding_mode != toward_zero:
            values = torch.from_numpy(np.frombuffer(input.tobytes(), dtype=np.float32).copy())
            rounded = values.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
            return rounded.reshape(input.shape)
        return original(input, input_dtype, output_dtype, rounding_mode)

    interpreter._convert_float = _convert_float


def _noncontiguous(x: torch.Tensor) -> torch.Tensor:
    """The same values and shape with transposed strides (needs size > 1 in the first and last dim)."""
    return x.transpose(0, -1).contiguous().transpose(0, -1)


def _prepare_x(x: torch.Tensor, layout: str) -> torch.Tensor:
    if layout == "noncontiguous":
        return _noncontiguous(x)
    if layout == "leading_dims":
        return x.view(2, x.shape[0] // 2, x.shape[-1])
    return x


def _run_op(case: Case) -> dict[str, Any]:
    module = importlib.import_module(f"workbench.kernels.{case.op}.ninetoothed")
    args = case_inputs(case)
    args = (_prepare_x(args[0], case.layout), *args[1:])
    before = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    # NaN-poisoned out= buffers: one tensor, or a tuple for an op with several outputs (add_rms_norm).
    out = module.SPEC.empty_out(args, fill=float("nan")) if case.out == "nan" else None
    saved_config = dict(module.CONFIG)
    module.CONFIG.update(case.config)
    try:
        result = getattr(module, case.op)(*args, out=out)
    finally:
        module.CONFIG.clear()
        module.CONFIG.update(saved_config)
    unchanged = all(
        torch.equal(a, b) if isinstance(a, torch.Tensor) else a == b for a, b in zip(args, before, strict=True)
    )
    return {
        "output": result,
        "returned_out": out is not None and result is out,
        "inputs_unchanged": unchanged,
    }


def _probe_arrangement(x, out):
    # The tile size is the constexpr size symbol itself, so the kernel takes constexpr parameters.
    return x.tile((x.shape[0],)), out.tile((out.shape[0],))


def _probe_application(x, out):
    out = x + 1  # noqa: F841 (NineToothed stores it)


def _run_probe(case: Case) -> dict[str, Any]:
    """An ntops-style kernel with constexpr shape parameters: x + 1 over a 1-D tensor."""
    import ninetoothed

    shape_options = {"constexpr": True}
    tensors = (
        ninetoothed.Tensor(1, shape_options=shape_options),
        ninetoothed.Tensor(1, shape_options=shape_options),
    )
    kernel = ninetoothed.make(_probe_arrangement, _probe_application, tensors, num_warps=4, num_stages=1)
    x = torch.arange(case.dims[0], dtype=torch.float32)
    out = torch.full_like(x, float("nan"))
    kernel(x, out)
    return {"output": out, "returned_out": True, "inputs_unchanged": True}


def _run_case(case: Case) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        fields = _run_probe(case) if case.op == "probe_constexpr" else _run_op(case)
        fields |= {"error": None, "message": ""}
    except Exception as exc:  # recorded for the test to judge; the child goes on with the next case
        fields = {"output": None, "returned_out": False, "inputs_unchanged": False}
        fields |= {"error": type(exc).__name__, "message": str(exc)}
    return fields | {"seconds": time.perf_counter() - start}


def main(cases_path: str, results_path: str) -> None:
    install()
    cases = [
        Case(**{**fields, "dims": tuple(fields["dims"])}) for fields in json.loads(pathlib.Path(cases_path).read_text())
    ]
    results = {case.id: _run_case(case) for case in cases}
    torch.save(results, results_path)


if __name__ == "__main__":
    main(*sys.argv[1:])
