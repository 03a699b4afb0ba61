"""Every design in the catalogue is a point of its kernel's SEARCH_SPACE, with a reason; it is a CONFIG edit."""

from __future__ import annotations

import ast

import pytest

from agent.policies.catalogue import catalogue, designs
from agent.policies.source_edit import read_literal, replace_config
from tools.paths import default_candidate
from workbench.kernels.registry import OPERATORS, model_plan, ops_with


def _literals(op: str, backend: str) -> dict:
    tree = ast.parse(default_candidate(op, backend).read_text())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        if node.targets[0].id in {"CONFIG", "SEARCH_SPACE"}
    }


@pytest.mark.parametrize(("op", "backend"), sorted(catalogue()))
def test_designs_are_points_of_the_search_space(op, backend):
    literals = _literals(op, backend)
    space = literals["SEARCH_SPACE"]
    assert all(literals["CONFIG"][key] in values for key, values in space.items())
    for design in designs(op, backend):
        assert design.rationale
        for key, value in design.config.items():
            assert key in space and value in space[key], f"{op}[{backend}] {design.name}: {key}={value}"


def test_every_op_the_model_calls_has_a_maca_cpp_kernel_file():
    assert set(ops_with("maca_cpp")) >= {op for op in OPERATORS if model_plan(op) is not None}


@pytest.mark.parametrize("op", ops_with("maca_cpp"))
def test_every_op_has_maca_cpp_designs_in_its_folder(op):
    found = designs(op, "maca_cpp")
    assert found == catalogue()[(op, "maca_cpp")] and found, f"{op}: no maca_cpp design in kernels/{op}/designs.py"


@pytest.mark.parametrize(("op", "backend"), sorted(catalogue()))
def test_designs_apply_to_the_kernel_file_as_a_config_edit_only(op, backend):
    """What the search policy does with a design ({**best, **design.config}): only CONFIG's text changes."""
    source = default_candidate(op, backend).read_text()
    config = read_literal(source, "CONFIG")
    for design in designs(op, backend):
        edited = replace_config(source, {**config, **design.config})
        assert read_literal(edited, "CONFIG") == {**config, **design.config}
        before, after = ast.parse(source).body, ast.parse(edited).body
        changed = [a for a, b in zip(before, after, strict=True) if ast.dump(a) != ast.dump(b)]
        # none where the file already runs the design (rope_qk's tilelang CONFIG is its decode design)
        assert [node.targets[0].id for node in changed] in ([], ["CONFIG"]), f"{op}[{backend}] {design.name}"
