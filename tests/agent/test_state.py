"""The loop state's reducers: the rows a node returns join the lists that grow over a run, without duplicates."""

from __future__ import annotations

from dataclasses import replace

from langgraph.graph import END, START, StateGraph

from agent.policies.base import Attempt
from agent.state import LoopState, append_new, merge_attempts


def _row(iteration: int, index: int, reflection: str = "") -> Attempt:
    return Attempt(iteration, f"try {iteration}.{index}", "rejected", "slower", index=index, reflection=reflection)


def test_a_rounds_rows_are_appended_and_their_reflections_replace_them_where_they_stood():
    earlier = [_row(1, 0, "done"), _row(1, 1, "done")]
    decided = merge_attempts(earlier, [_row(2, 0), _row(2, 1)])
    assert [(a.iteration, a.index) for a in decided] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    reflected = merge_attempts(decided, [replace(a, reflection="why") for a in decided[2:]])
    assert [(a.iteration, a.index, a.reflection) for a in reflected] == [
        (1, 0, "done"),
        (1, 1, "done"),
        (2, 0, "why"),
        (2, 1, "why"),
    ]


def test_a_whole_list_pending_from_an_older_checkpoint_adds_only_what_is_new():
    # Before the reducers, decide and reflect wrote the whole list and commit the whole list of shas.
    earlier = [_row(1, 0, "done")]
    assert merge_attempts(earlier, [*earlier, _row(2, 0)]) == [*earlier, _row(2, 0)]
    assert append_new(["a1"], ["a1", "b2"]) == ["a1", "b2"]


def test_a_commit_run_again_after_a_kill_is_listed_once():
    assert append_new(["a1", "b2"], ["b2"]) == ["a1", "b2"]
    assert append_new([], ["a1", "a1"]) == ["a1"]


def test_langgraph_applies_the_reducers_to_the_states_lists():
    def decide(state: LoopState) -> dict:
        return {"attempts": [_row(1, 0), _row(1, 1)], "commits": ["a1"]}

    def reflect(state: LoopState) -> dict:
        rows = [replace(a, reflection="why") for a in state.attempts if a.iteration == 1]
        return {"attempts": rows, "commits": ["a1"]}

    graph = StateGraph(LoopState)
    graph.add_node("decide", decide)
    graph.add_node("reflect", reflect)
    graph.add_edge(START, "decide")
    graph.add_edge("decide", "reflect")
    graph.add_edge("reflect", END)
    final = graph.compile().invoke({"attempts": [_row(0, 0, "start")]})
    assert [(a.iteration, a.index, a.reflection) for a in final["attempts"]] == [
        (0, 0, "start"),
        (1, 0, "why"),
        (1, 1, "why"),
    ]
    assert final["commits"] == ["a1"]
