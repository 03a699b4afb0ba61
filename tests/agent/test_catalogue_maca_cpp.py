"""The maca_cpp catalogue: every design is a point of its kernel file's SEARCH_SPACE, with a reason."""

from __future__ import annotations

import ast

import pytest

from agent.policies.catalogue import designs
from agent.policies.catalogue_maca_cpp import DESIGNS
from kernels.registry import OPERATORS
from tools.paths import default_candidate


def _literals(op: str) -> dict:
    tree = ast.parse(default_candidate(op, "maca_cpp").read_text())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        if node.targets[0].id in {"CONFIG", "SEARCH_SPACE"}
    }


@pytest.mark.parametrize("op", OPERATORS)
def test_designs_are_points_of_the_search_space(op):
    literals = _literals(op)
    space = literals["SEARCH_SPACE"]
    assert all(literals["CONFIG"][key] in values for key, values in space.items())
    assert designs(op, "maca_cpp") == DESIGNS[op] and DESIGNS[op], f"{op}: no maca_cpp design"
    for design in DESIGNS[op]:
        assert design.rationale
        for key, value in design.config.items():
            assert key in space and value in space[key], f"{op}[maca_cpp] {design.name}: {key}={value}"
