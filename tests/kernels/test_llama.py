"""The hidden shapes of every op cover every dimension the Llama 3 family ships (kernels/llama.py)."""

from __future__ import annotations

import random

import pytest

from workbench.kernels import registry
from workbench.kernels.llama import FAMILY, FAMILY_TOKENS, family_dims


def _hidden_dims(op: str) -> list[tuple[int, ...]]:
    return [s.dims for s in registry.spec(op).hidden_shapes]


@pytest.mark.parametrize("op", ["rms_norm", "add_rms_norm"])
def test_every_hidden_size_is_a_hidden_shape(op):
    widths = {dims[-1] for dims in _hidden_dims(op)}
    assert set(family_dims("hidden")) <= widths
    assert {2048, 3072, 4096, 8192, 16384} <= widths  # 1B, 3B, 8B, 70B, 405B


def test_every_intermediate_size_is_a_hidden_shape():
    intermediates = {dims[-1] // 2 for dims in _hidden_dims("silu_mul")}
    assert set(family_dims("intermediate")) == {8192, 14336, 28672, 53248}
    assert set(family_dims("intermediate")) <= intermediates


def test_every_q_and_kv_head_layout_is_a_rope_hidden_shape():
    layouts = {(dims[2], dims[3]) for dims in _hidden_dims("rope")}
    for model in FAMILY.values():
        assert (model.q_heads, model.head_dim) in layouts
        assert (model.kv_heads, model.head_dim) in layouts
    assert {heads for heads, _ in layouts} >= {24, 32, 64, 128, 8}


def test_every_head_layout_is_a_rope_qk_hidden_shape():
    layouts = {dims[2:] for dims in _hidden_dims("rope_qk")}
    for model in FAMILY.values():
        assert (model.q_heads, model.kv_heads, model.head_dim) in layouts


@pytest.mark.parametrize("op", ["rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul"])
def test_the_family_shapes_are_few_tokens_and_named_by_model(op):
    family = [s for s in registry.spec(op).hidden_shapes if any(s.name.startswith(f"hidden/{m}") for m in FAMILY)]
    assert family
    for shape in family:
        tokens = shape.dims[0] * shape.dims[1] if len(shape.dims) > 2 else shape.dims[0]
        assert tokens == FAMILY_TOKENS, shape
    assert len({s.name for s in registry.spec(op).hidden_shapes}) == len(registry.spec(op).hidden_shapes)


@pytest.mark.parametrize("op", ["rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul"])
def test_the_random_draw_reaches_the_family(op):
    spec = registry.spec(op)
    drawn = [spec.random_hidden_shape(random.Random(seed)).dims for seed in range(400)]
    if op in ("rms_norm", "add_rms_norm"):
        assert set(family_dims("hidden")) <= {d[-1] for d in drawn}
    elif op == "silu_mul":
        assert set(family_dims("intermediate")) <= {d[-1] // 2 for d in drawn}
    else:
        assert set(family_dims("q_heads")) <= {d[2] for d in drawn}
