"""The recorded judge the loop fixtures replay (tests/agent/recorded_judge.py): it answers only for what was
recorded, names the file it is given, and its records name nothing of the machine they were made on."""

from __future__ import annotations

import re

import pytest

from tests.agent.recorded_judge import RECORDS, RecordedJudge
from tests.agent.tuned_candidates import TUNED_ROPE
from tools.evaluator.options import EvalOptions


def test_a_recorded_start_is_replayed_for_the_file_it_is_given(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    record = RecordedJudge()("rope", "torch", kernel, EvalOptions(shapes=["llama3.2-1b/decode1/q"]))
    assert record.status == "ok" and record.benchmark and record.candidate == str(kernel.resolve())


OPTIONS = EvalOptions(shapes=["llama3.2-1b/decode1/q"], device="cpu", other_dtypes=False)


def test_a_source_never_recorded_that_passes_is_refused_with_how_to_record_it(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE.replace('"delay_ms": 4}', '"delay_ms": 0}'))
    with pytest.raises(FileNotFoundError, match=r"delay_ms 0\).*python -m tests.agent.recorded_judge"):
        RecordedJudge()("rope", "torch", kernel, OPTIONS)


def test_a_source_never_recorded_that_fails_keeps_its_live_record(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE.replace("    out.copy_(result)\n", "    out.copy_(result * 2)\n"))
    record = RecordedJudge()("rope", "torch", kernel, OPTIONS)
    assert record.status == "failed" and record.failed_stage == "correctness"


def test_the_records_name_no_host_path():
    texts = [path.read_text() for path in sorted(RECORDS.glob("*.json"))]
    assert texts
    for text in texts:
        assert not re.search(r'"(/tmp|/root|/home|/work)/', text)
