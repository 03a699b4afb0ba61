"""What the NineToothed CPU tests share: every op's cases, run under the interpreter, and judging them.

An op's cases are `OpCases`: those every op has (its numerics, allocating, NaN-poisoned, empty and
non-contiguous cases), judged by tests/kernels/test_ninetoothed.py for every op with a NineToothed kernel,
and its own, judged by tests/kernels/<op>/test_ninetoothed.py. `tests/kernels/<op>/ninetoothed_cases.py`
says which they are; an op without one gets cases made from its spec's hidden shapes (`spec_cases`). An
op's cases run once, in child processes (see ninetoothed_interpreter.py for why and how), when a test
first needs one (`OutcomesByOp`); each test judges one case's outcome here, in the pytest process,
against the fp32 reference.
"""

from __future__ import annotations

import importlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import torch

from tests.kernels.ninetoothed_interpreter import Case, Outcome, case_inputs, run_cases
from workbench.kernels.registry import ops_with
from workbench.kernels.registry import spec as op_spec
from workbench.kernels.spec import OpSpec, compare, dtype_name, parse_dtype

# The long-prompt and long-context hidden shapes (2-9 million elements) would take the interpreter many minutes
# each; their index arithmetic is the GPU tests' and the evaluator's to check.
INTERPRETABLE_ELEMENTS = 2**20


def _interpretable(dims: tuple[int, ...]) -> bool:
    return math.prod(dims) <= INTERPRETABLE_ELEMENTS


def run_op_cases(cases: list[Case], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """All of a test file's cases in one go, by case id."""
    # One child per pytest-xdist worker's share of the cores (two children when run alone; a child takes whole
    # ops). The timeout is a deadline, not a budget: the cases take minutes here, more with the machine busy.
    children = 1 if os.environ.get("PYTEST_XDIST_WORKER") else 2
    return run_cases(cases, tmp_path_factory.mktemp("ninetoothed-interpreter"), workers=children, timeout=1200)


@dataclass(frozen=True)
class OpCases:
    """An op's interpreter cases: those every op has, judged alike for all ops, and its own (`extra`)."""

    numerics: list[Case]
    allocates: Case  # out=None: the op allocates its outputs
    poisoned: Case  # out= filled with NaN: every element written, the inputs left as they were
    empty: Case  # no rows: empty outputs of the right shapes
    noncontiguous: Case  # a non-contiguous input: ValueError
    extra: list[Case] = field(default_factory=list)

    def all(self) -> list[Case]:
        return [*self.numerics, self.allocates, self.poisoned, self.empty, self.noncontiguous, *self.extra]


def spec_cases(op: str) -> OpCases:
    """Cases made from the op's spec alone: for an op folder whose tests list no cases of their own."""
    spec = op_spec(op)
    first = next(s for s in spec.hidden_shapes if _interpretable(s.dims)).dims
    return OpCases(
        numerics=numerics_cases(op, hidden_and(op, {})),
        allocates=Case(f"{op}/allocates", op, first, "fp16", seed=1, out="none"),
        poisoned=Case(f"{op}/nan-out", op, first, "bf16", seed=2),
        empty=Case(f"{op}/empty", op, (0, *first[1:]), "bf16"),
        noncontiguous=Case(f"{op}/noncontiguous", op, first, "bf16", layout="noncontiguous"),
    )


def cases_of(op: str) -> OpCases:
    """The op's cases: tests/kernels/<op>/ninetoothed_cases.py's CASES, else made from its spec."""
    if (Path(__file__).parent / op / "ninetoothed_cases.py").is_file():
        return importlib.import_module(f"tests.kernels.{op}.ninetoothed_cases").CASES
    return spec_cases(op)


# The ops whose NineToothed kernel the CPU tests run, in the registry's order.
NINETOOTHED_OPS = ops_with("ninetoothed")


class OutcomesByOp(dict):
    """Outcomes by case id, an op's cases run (all of them, in one go) when a test first asks for one of them:
    a test file of one op runs that op's cases only."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory):
        super().__init__()
        self._tmp_path_factory = tmp_path_factory
        self._ran: set[str] = set()

    def __missing__(self, case_id: str) -> Outcome:
        op = case_id.split("/", 1)[0]
        if op in self._ran:
            raise KeyError(case_id)
        self._ran.add(op)
        self.update(run_op_cases(cases_of(op).all(), self._tmp_path_factory))
        return self[case_id]


def numerics_cases(op: str, shapes: dict[str, tuple[int, ...]], one_dtype: set[str] = frozenset()) -> list[Case]:
    """`shapes` in every dtype of the op (the ones in `one_dtype` in bf16 only)."""
    spec = op_spec(op)
    return [
        Case(f"{op}/{name}-{dtype_name(dtype)}", op, dims, dtype_name(dtype))
        for name, dims in shapes.items()
        for dtype in spec.dtypes
        if name not in one_dtype or dtype == torch.bfloat16
    ]


def hidden_and(op: str, small: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    """The op's hidden shapes and `small`, by name."""
    hidden = {s.name: s.dims for s in op_spec(op).hidden_shapes if _interpretable(s.dims)}
    return {**hidden, **small}


def ran(outcomes: dict[str, Outcome], case: Case) -> Outcome:
    outcome = outcomes[case.id]
    assert outcome.error is None, f"{case.id} raised {outcome.error}: {outcome.message}"
    return outcome


def check_numerics(case: Case, outcome: Outcome) -> None:
    spec: OpSpec = op_spec(case.op)
    dtype = parse_dtype(case.dtype)
    args = case_inputs(case)
    # One tensor, or one per output (add_rms_norm: sum, normed), each compared with its own tolerance.
    # Shaped as the reference: a leading_dims case returns [2, rows // 2, ...], silu_mul halves the last dim.
    refs = spec.as_outputs(spec.reference(*args))
    outputs = tuple(
        output.reshape(ref.shape) for output, ref in zip(spec.as_outputs(outcome.output), refs, strict=True)
    )
    assert all(output.dtype == dtype for output in outputs)
    for name, output, ref in zip(spec.outputs, outputs, refs, strict=True):
        comparison = compare(output, ref, spec.tolerance(dtype, name))
        assert comparison.ok, f"{case.id} {name}: {comparison.message}"


def check_matches_reference(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out, "the op must return the out= buffer it was given"
    check_numerics(case, outcome)


def check_nan_poisoned_out_is_fully_overwritten(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    outputs = op_spec(case.op).as_outputs(outcome.output)
    assert all(bool(torch.isfinite(output).all()) for output in outputs), f"{case.id}: NaN left in out"


def check_empty_input_returns_empty_output(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    spec = op_spec(case.op)
    args = spec.make_inputs(case.dims, parse_dtype(case.dtype), case.seed, "cpu")
    expected = [tuple(buffer.shape) for buffer in spec.as_outputs(spec.empty_out(args))]
    assert [tuple(output.shape) for output in spec.as_outputs(outcome.output)] == expected
    assert outcome.returned_out


def check_noncontiguous_input_raises_value_error(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = outcomes[case.id]
    assert outcome.error == "ValueError", f"expected ValueError, got {outcome.error}: {outcome.message}"
    assert "not contiguous" in outcome.message
