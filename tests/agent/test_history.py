"""What a proposal prompt carries of earlier iterations (agent/policies/history.py): within its budget, the
oldest cut first."""

from __future__ import annotations

from agent.policies.base import Attempt
from agent.policies.history import fit, next_line, tokens


def _attempts(n: int) -> list[Attempt]:
    return [
        Attempt(
            i,
            f"try {i}",
            "failed",
            f"failed at compile (attempt {i})",
            failure=f"failed at compile: error in attempt {i} " + "x" * 200,
            reflection=f"It broke.\nNext: fix attempt {i}.",
        )
        for i in range(1, n + 1)
    ]


def test_the_history_keeps_within_its_budget_cutting_the_oldest_first():
    attempts = _attempts(30)
    diffs = {str(i): f"-old {i}\n+new {i}\n" * 50 for i in range(1, 31)}
    history = fit(attempts, diffs, budget=800)
    assert history.used <= 800
    assert "| 30 | failed |" in history.table and "| 1 | failed |" not in history.table
    assert history.failures[0].label == "30" and all(note.label != "1" for note in history.failures)
    assert history.reflections[0].text.startswith("It broke.")  # the latest whole
    assert history.cut["table rows"] > 0 and history.cut["failure lines"] > 0
    everything = fit(attempts, diffs, budget=100_000)
    assert not everything.cut and len(everything.diffs) == 4  # the last four diffs at most
    assert [n.text for n in everything.reflections[1:3]] == ["fix attempt 29.", "fix attempt 28."]


def test_a_reflections_next_line_or_its_last_sentence():
    assert next_line("Slower by 3%.\n**Next:** try 256 threads.") == "try 256 threads."
    assert next_line("Slower by 3%. Try 256 threads.") == "Try 256 threads."
    assert tokens("abcdefghi") == 3
