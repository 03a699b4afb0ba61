"""The timed batches' chain (tools/evaluator/layout.py): each call's chained argument begins with fresh values and
ends with the first half of the previous call's output, and on no op is that input a fixed point of the op."""

from __future__ import annotations

import pytest
import torch

from tools.evaluator.layout import OUTPUT_ARENA, Layout, chain_lead, chain_lead_elements, chained_input
from workbench.kernels import registry
from workbench.kernels.spec import NamedShape, OpSpec

OPS = ("rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul")
DTYPE = torch.bfloat16


def _shapes(spec: OpSpec) -> list[NamedShape]:
    """A decode shape of the 8B model, and the 70B's hidden shape (rope: its q), a few rows each."""
    decode = next(s for s in spec.shapes if s.name.startswith("llama3-8b/decode8"))
    family = next(s for s in spec.hidden_shapes if s.name.startswith("hidden/llama3-70b"))
    return [decode, family]


def _batch_inputs(spec: OpSpec, dims: tuple[int, ...], seed: int, count: int) -> list[tuple]:
    """`count` sets as a timed batch draws them (benchmark.py, `_fresh_inputs`): one input of `count` times the
    leading dim, the arguments that depend on it split per set, the others (weights, tables) shared."""
    big = spec.make_inputs((dims[0] * count, *dims[1:]), DTYPE, seed, "cpu")
    one = spec.make_inputs(dims, DTYPE, seed, "cpu")
    sets = []
    for index in range(count):
        args = []
        for value, shaped in zip(big, one, strict=True):
            if not isinstance(value, torch.Tensor) or value.shape == shaped.shape:
                args.append(value)
            else:
                args.append(value.view(count, *shaped.shape)[index])
        sets.append(tuple(args))
    return sets


def _second_call(spec: OpSpec, dims: tuple[int, ...], seed: int = 7) -> tuple[tuple, tuple, tuple]:
    """(the first call's args, the second call's args as the chain makes them, the second call's fresh draw)."""
    first, second = _batch_inputs(spec, dims, seed, 2)
    outs = spec.as_outputs(spec.expected(first, DTYPE))
    args = list(second)
    for link in spec.chain:
        out = outs[link.output]
        args[link.arg] = chained_input(second[link.arg], out, chain_lead_elements(second[link.arg], out))
    return first, tuple(args), second


def _out_of_tolerance(spec: OpSpec, got: torch.Tensor, ref: torch.Tensor, output: str) -> float:
    """The fraction of elements of `got` outside the op's tolerance of `ref`."""
    tol = spec.tolerance(DTYPE, output)
    got = got.to(DTYPE).float()
    return float(((got - ref).abs() > tol.atol + tol.rtol * ref.abs()).float().mean())


def _shortcuts(op: str, args: tuple) -> dict[str, tuple[str, torch.Tensor]]:
    """What a kernel could return on its chained input if that input were a fixed point: by name, (output, value)."""
    if op == "rms_norm":
        x, weight, _ = (a.float() if isinstance(a, torch.Tensor) else a for a in args)
        return {
            "x * w (the row taken as normalised)": ("out", x * weight),
            "x * w / rms(w) (the row's norm taken from the weight)": ("out", x * weight / weight.pow(2).mean().sqrt()),
        }
    if op == "add_rms_norm":
        x, residual, weight, _ = (a.float() if isinstance(a, torch.Tensor) else a for a in args)
        return {"(x + residual) * w": ("normed", (x + residual) * weight)}
    if op == "rope":
        return {"x unrotated": ("out", args[0].float())}
    if op == "rope_qk":
        return {"q unrotated": ("q", args[0].float()), "k unrotated": ("k", args[1].float())}
    half = args[0].shape[-1] // 2
    gate, up = args[0][..., :half].float(), args[0][..., half:].float()
    return {"the gate": ("out", gate), "gate * up (no silu)": ("out", gate * up)}


@pytest.mark.parametrize("op", OPS)
def test_no_chained_input_is_a_fixed_point_of_its_op(op):
    """The op on its own chained input differs from each shortcut by far more than the tolerance, on most elements.

    With the old chain (the whole output fed back, rms_norm's weights +-1) rms_norm's `x * w` was exact on every
    element (`test_the_old_chain_was_a_fixed_point_of_rms_norm`): this test fails on such a chain.
    """
    spec = registry.spec(op)
    for shape in _shapes(spec):
        for seed in (1, 2, 3):
            _, args, _ = _second_call(spec, shape.dims, seed)
            refs = dict(zip(spec.outputs, spec.as_outputs(spec.reference(*args)), strict=True))
            for name, (output, value) in _shortcuts(op, args).items():
                wrong = _out_of_tolerance(spec, value, refs[output], output)
                assert wrong > 0.25, f"{op} {shape.name} seed {seed}: {name} is right on {1 - wrong:.0%} of elements"


def test_the_old_chain_was_a_fixed_point_of_rms_norm():
    """The check above can fail: a normalised row fed back whole, with weights of +-1, is returned as x * w."""
    spec = registry.spec("rms_norm")
    x, weight, eps = spec.make_inputs((8, 4096), DTYPE, 1, "cpu")
    weight = torch.where(weight < 0, -1.0, 1.0).to(DTYPE)
    chained = spec.expected((x, weight, eps), DTYPE)  # the whole output, as the next call's x
    ref = spec.reference(chained, weight, eps)
    assert _out_of_tolerance(spec, chained.float() * weight.float(), ref, "out") == 0.0


@pytest.mark.parametrize("op", OPS)
def test_each_chained_input_depends_on_the_last_output_and_is_at_least_two_fifths_fresh(op):
    spec = registry.spec(op)
    for shape in _shapes(spec):
        first, args, fresh = _second_call(spec, shape.dims)
        outs = spec.as_outputs(spec.expected(first, DTYPE))
        for link in spec.chain:
            out, arg = outs[link.output].reshape(-1), args[link.arg].reshape(-1)
            lead = chain_lead_elements(args[link.arg], outs[link.output])
            chained = arg.numel() - lead
            assert 1 <= chained <= out.numel() // 2  # about the first half of the output
            assert torch.equal(arg[lead:], out[:chained])
            assert torch.equal(arg[:lead], fresh[link.arg].reshape(-1)[:lead])
            assert lead >= 0.4 * arg.numel(), "fresh values make at least two fifths of the input"


@pytest.mark.parametrize("out_nbytes", [32, 100, 1024, 6000, 8192, 2**26 + 3 * 512])
@pytest.mark.parametrize("extra", [0, 1, 2])
def test_the_chain_lead_leaves_about_half_the_output_to_end_the_argument_and_is_aligned(out_nbytes, extra):
    """The argument ends with at most, and nearly, the first half of the output; the output starts aligned."""
    arg_nbytes = out_nbytes * (1 + extra)
    lead = chain_lead(arg_nbytes, out_nbytes)
    align = 512 if out_nbytes >= 1024 else 16
    chained = arg_nbytes - lead
    assert 0 < chained <= out_nbytes // 2
    assert lead % align == 0
    assert out_nbytes // 2 - chained < align


@pytest.mark.parametrize("op", OPS)
def test_calls_over_a_chained_layout_see_what_the_judge_reconstructs(op):
    """Calls in order over a chained layout's arenas (as a runner makes them) read what `chained_args` says they did."""
    spec = registry.spec(op)
    dims = _shapes(spec)[0].dims
    count = 4
    sets = _batch_inputs(spec, dims, 11, count)
    layout = Layout(sets[0], spec.as_outputs(spec.empty_out(sets[0])), count, spec.multi_output, chain=spec.chain)
    arenas = (torch.zeros(layout.input_bytes, dtype=torch.uint8), torch.zeros(layout.output_bytes, dtype=torch.uint8))
    layout.fill(arenas, sets)
    layout.poison(arenas[OUTPUT_ARENA], count)
    seen = []
    for index in range(count):
        args = layout.set_args(arenas, index)
        seen.append(tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args))
        assert not any(
            bool(torch.isnan(a).any()) for a in args if isinstance(a, torch.Tensor) and a.is_floating_point()
        )
        for buffer, value in zip(
            spec.as_outputs(layout.set_outputs(arenas[OUTPUT_ARENA], index)),
            spec.as_outputs(spec.expected(args, DTYPE)),
            strict=True,
        ):
            buffer.copy_(value)
    fresh = []
    for position, slot in enumerate(layout.inputs):
        if not slot.is_tensor:
            fresh.append(sets[0][position])
        else:
            fresh.append(torch.stack([s[position] for s in sets]))
    for index in range(count):
        rebuilt = layout.chained_args(fresh, arenas[OUTPUT_ARENA], index)
        for got, want in zip(rebuilt, seen[index], strict=True):
            assert torch.equal(got, want) if isinstance(want, torch.Tensor) else got == want
