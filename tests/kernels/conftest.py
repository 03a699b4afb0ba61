"""The NineToothed interpreter's outcomes, shared by the tests of every op's NineToothed kernel on the CPU.

One mapping for the session: an op's cases run (in child processes) when a test first reads one of them, so
the shared tests (tests/kernels/test_ninetoothed.py) and the op's own (tests/kernels/<op>/test_ninetoothed.py)
read one run. pytest-xdist keeps the tests that read it on one worker (`outcomes` is one of tests/conftest.py's
shared fixtures).
"""

from __future__ import annotations

import pytest

from tests.kernels.ninetoothed_checks import OutcomesByOp


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> OutcomesByOp:
    return OutcomesByOp(tmp_path_factory)
