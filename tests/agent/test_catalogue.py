"""Every design in the catalogue is a point of its kernel's SEARCH_SPACE, with a reason."""

from __future__ import annotations

import ast

import pytest

from agent.policies.catalogue import CATALOGUE
from tools.paths import default_candidate


def _literals(op: str, backend: str) -> dict:
    tree = ast.parse(default_candidate(op, backend).read_text())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        if node.targets[0].id in {"CONFIG", "SEARCH_SPACE"}
    }


@pytest.mark.parametrize(("op", "backend"), sorted(CATALOGUE))
def test_designs_are_points_of_the_search_space(op, backend):
    literals = _literals(op, backend)
    space = literals["SEARCH_SPACE"]
    assert all(literals["CONFIG"][key] in values for key, values in space.items())
    for design in CATALOGUE[(op, backend)]:
        assert design.rationale
        for key, value in design.config.items():
            assert key in space and value in space[key], f"{op}[{backend}] {design.name}: {key}={value}"
