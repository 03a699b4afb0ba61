"""agent eval's shapes on a CPU: a small default set, named; what was asked, as asked."""

from __future__ import annotations

import dataclasses

import pytest

from agent.cpu_shapes import choose
from workbench.kernels import registry
from workbench.kernels.registry import OPERATORS


@pytest.mark.parametrize("op", OPERATORS)
def test_a_cpu_without_shapes_times_a_decode_batch_and_the_shortest_prefill(op):
    spec = registry.spec(op)
    choice = choose(spec, None, on_cpu=True)
    assert choice.shapes and all(name.startswith("llama3.2-1b/") for name in choice.shapes)
    assert {name.split("/")[1] for name in choice.shapes} == {"decode8", "prefill512"}
    assert spec.select(choice.shapes)  # names the evaluator accepts
    assert "small shape" in choice.note and "--shapes" in choice.note


def test_a_gpu_or_shapes_given_keeps_the_choice_as_it_was():
    spec = registry.spec("rope")
    assert choose(spec, None, on_cpu=False).shapes is None
    assert choose(spec, ["decode1"], on_cpu=True).shapes == ["decode1"]
    assert choose(spec, ["decode1"], on_cpu=True).note is None


def test_every_shape_asked_for_on_a_cpu_comes_with_a_warning():
    spec = registry.spec("rms_norm")
    choice = choose(spec, ["*"], on_cpu=True)
    assert choice.shapes == ["*"] and f"all {len(spec.shapes)} named shapes" in choice.note


def test_an_op_without_llama_1b_shapes_gets_its_smallest():
    spec = registry.spec("rms_norm")
    other = dataclasses.replace(spec, shapes=tuple(s for s in spec.shapes if s.name.startswith("llama3-8b/")))
    assert choose(other, None, on_cpu=True).shapes == ["llama3-8b/decode1"]
