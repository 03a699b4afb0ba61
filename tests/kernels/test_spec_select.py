"""OpSpec.select: which named shapes a --shapes pattern picks, and a clear error for one that picks none."""

from __future__ import annotations

import pytest

from workbench.kernels.rope_qk.spec import SPEC


def test_a_pattern_is_a_whole_name_a_part_or_a_glob():
    assert [s.name for s in SPEC.select(["llama3-8b/decode1"])] == ["llama3-8b/decode1"]
    assert {s.name for s in SPEC.select(["decode1"])} == {"llama3.2-1b/decode1", "llama3-8b/decode1"}
    assert len(SPEC.select(["llama3-8b/prefill*"])) == 4


def test_every_pattern_must_match_something():
    # "llama3-8b/prefill" is no part of "llama3-8b/prefill512": beside "decode1" it was dropped without a word.
    with pytest.raises(ValueError, match=r"no rope_qk shape matches \['llama3-8b/prefill'\].*glob"):
        SPEC.select(["llama3-8b/prefill", "decode1"])
