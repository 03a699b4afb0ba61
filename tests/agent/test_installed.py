"""A backend whose library is not installed is named before anything runs, with what to install."""

from __future__ import annotations

import pytest

from agent import installed


def test_an_installed_library_or_a_backend_without_one_needs_nothing():
    assert installed.missing("tilelang") is None  # a dependency of every install
    assert installed.missing("torch") is None and installed.missing("maca_cpp") is None


def test_a_missing_library_names_the_extra_that_installs_it(monkeypatch):
    monkeypatch.setitem(installed.LIBRARIES, "ninetoothed", ("kw_no_such_module", "gpu"))
    note = installed.missing("ninetoothed")
    assert note == (
        "the ninetoothed backend needs the kw_no_such_module package, which is not installed here: "
        'pip install -e ".[gpu]"'
    )
    with pytest.raises(RuntimeError, match=r'pip install -e "\.\[gpu\]"'):
        installed.require("ninetoothed")
