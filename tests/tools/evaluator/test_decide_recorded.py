"""Decisions recorded before they named their rule: old run folders and checkpoints read as they did."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import ormsgpack
import pytest
from langgraph.checkpoint.serde.jsonplus import EXT_PYDANTIC_V2, JsonPlusSerializer, _msgpack_enc

from agent.state import CHECKPOINTED_TYPES, Evaluation
from tools.evaluator.decide import Decision, Rule
from tools.runfolder import DecideEvent

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "runs"
FASTER = "geomean 1.142x over the best (graph scope, lower bound 1.106x)"  # as an example run recorded it


def _old(accepted: bool, reason: str, **figures) -> dict:
    """A decision as the judge recorded it before: tools/evaluator/decide.py's dataclass of five fields."""
    return {"accepted": accepted, "reason": reason, "geomean_speedup": None, "noise": None, "scope": None, **figures}


@pytest.mark.parametrize(
    ("accepted", "reason", "rule", "label"),
    [
        (True, FASTER, Rule.FASTER, "faster beyond noise"),
        (True, "first correct version: it becomes the best", Rule.FIRST_VERSION, "first correct version"),
        (
            False,
            "2 shape-scope(s) slower than the best beyond noise (worst llama3-8b/prefill16384 (graph): 0.605x)",
            Rule.SLOWER_SHAPE,
            "a shape slower beyond noise",
        ),
        (
            False,
            "geomean 0.997x (graph scope) is within the noise (lower bound 0.980x)",
            Rule.WITHIN_NOISE,
            "within noise",
        ),
        (False, "no shape was timed against the current best", Rule.NOT_TIMED, "not timed against the best"),
        (False, "failed at correctness: correctness: 2/4 checks failed", Rule.FAILED_STAGE, "incorrect"),
        (False, "failed at compile: compile: error", Rule.FAILED_STAGE, "did not compile"),
        (False, "failed at static: imports os", Rule.FAILED_STAGE, "refused by the lint"),
        (False, "failed at e2e: e2e: tokens differ at step 3", Rule.FAILED_E2E, "changed the model's tokens (e2e)"),
        (False, "failed at benchmark: s bf16: measurement_error (x)", Rule.FAILED_STAGE, "roofline check"),
        (False, "failed at benchmark: s bf16: wrong_after_timing (x)", Rule.FAILED_STAGE, "incorrect while timed"),
        (False, "failed at benchmark: s bf16: failed (out of memory)", Rule.FAILED_STAGE, "failed at benchmark"),
        (False, "a reason no rule has", Rule.UNKNOWN, "other"),
        (True, "a reason no rule has", Rule.UNKNOWN, "accepted"),
    ],
)
def test_an_old_decision_reads_by_the_rule_its_words_state(accepted, reason, rule, label):
    decision = Decision.model_validate(_old(accepted, reason))
    assert (decision.rule, decision.accepted, decision.label) == (rule, accepted, label)
    assert decision.reason == reason  # word for word: its figures were not recorded apart


def test_an_old_decision_keeps_the_figures_it_recorded():
    decision = Decision.model_validate(_old(True, FASTER, geomean_speedup=1.142, noise=0.03, scope="graph"))
    assert (decision.geomean_speedup, decision.noise, decision.scope) == (1.142, 0.03, "graph")
    failed = Decision.model_validate(_old(False, "failed at compile: compile: error: no layout\nat line 3"))
    assert (failed.stage, failed.message) == ("compile", "compile: error: no layout\nat line 3")


def test_every_decision_of_the_committed_examples_names_a_rule_and_reads_as_written():
    decided = 0
    for events in EXAMPLES.glob("*/events.jsonl"):
        for line in events.read_text().splitlines():
            event = json.loads(line)
            if event["event"] != "decide":
                continue
            parsed = DecideEvent.model_validate(event)
            for index, recorded in enumerate(event["decisions"]):
                decision = parsed.decision(index)
                assert decision.rule is not Rule.UNKNOWN and decision.reason == recorded["reason"]
                assert decision.geomean_speedup == recorded["geomean_speedup"]
                decided += 1
    assert decided >= 10


def test_an_old_round_that_kept_one_of_two_passing_candidates_reads_the_other_as_beaten():
    slower = _old(True, "geomean 1.050x over the best (graph scope, lower bound 1.020x)", geomean_speedup=1.05)
    event = {"event": "decide", "iteration": 1, "accepted": 0, "decisions": [_old(True, FASTER), slower]}
    event["outcomes"] = ["accepted", "rejected"]
    parsed = DecideEvent.model_validate(event)
    assert parsed.decision(0).rule is Rule.FASTER
    beaten = parsed.decision(1)
    assert (beaten.rule, beaten.accepted, beaten.geomean_speedup) == (Rule.BEATEN, False, 1.05)
    assert beaten.reason == slower["reason"]  # as the old export showed it


def test_a_checkpoint_holding_an_old_decision_resumes_with_the_new_type(caplog):
    """LangGraph's serializer, as agent/loop.py configures it, on an Evaluation written when Decision had five
    fields, and on one written now: both read back whole, nothing blocked."""
    serde = JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINTED_TYPES)
    old = {"eval": "iterations/0001/eval.json", "decision": _old(True, FASTER, geomean_speedup=1.142, scope="graph")}
    blob = ormsgpack.packb(
        [ormsgpack.Ext(EXT_PYDANTIC_V2, _msgpack_enc(("agent.state", "Evaluation", old, "model_validate_json")))]
    )
    new = Decision(rule=Rule.WITHIN_NOISE, accepted=False, scope="graph", geomean_speedup=1.0, lower_bound=0.98)
    with caplog.at_level(logging.WARNING):
        (from_old,) = serde.loads_typed(("msgpack", blob))
        (from_new,) = serde.loads_typed(serde.dumps_typed([Evaluation(eval="e", decision=new)]))
    assert isinstance(from_old, Evaluation) and from_old.decision.rule is Rule.FASTER
    assert from_old.decision.geomean_speedup == 1.142 and from_old.decision.reason == FASTER
    assert from_new.decision == new
    assert not [r for r in caplog.records if "Blocked" in r.getMessage()]
