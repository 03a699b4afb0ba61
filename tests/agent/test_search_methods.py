"""Both search methods reach the optimum of a known landscape from item 8's poor start, never repeating a point."""

from __future__ import annotations

import pytest

from tests.agent.search_simulation import START, simulate
from workbench.kernels.kernel_file import knob_values


@pytest.mark.parametrize(("method", "objective", "within"), [
    ("walk", "separable", 20), ("walk", "coupled", 20), ("optuna", "separable", 40), ("optuna", "rugged", 40),
])  # fmt: skip
def test_the_method_reaches_the_optimum(method, objective, within):
    outcome = simulate(method, objective, budget=within)
    assert outcome.to_optimum is not None, f"{method} on {objective}: best {outcome.best:.3f} of {outcome.optimum:.3f}"


@pytest.mark.parametrize("method", ["walk", "optuna"])
def test_no_method_proposes_a_point_twice_or_the_start(method):
    points = [tuple(sorted(c.items())) for c in simulate(method, "rugged", budget=30).proposed]
    assert len(points) == 30 and len(set(points)) == len(points)
    assert tuple(sorted(knob_values(START).items())) not in points
