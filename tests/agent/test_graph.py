"""The loop's parts on their own: the commit message, the decide node over records in a run folder, and the
hardware notes of the device present."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from langgraph.runtime import Runtime

import prompts
from agent.config import RunConfig
from agent.graph import Deps, build_graph, decide_node
from agent.policies.base import Proposal
from agent.state import Candidate, Evaluation, LoopState
from tests.tools.evaluator.test_decide import _record
from tools.evaluator.decide import LABELS, Rule
from tools.runfolder import RunFolder
from tools.workspace import commit_message


def _message(**changes) -> str:
    fields = dict(
        op="rope",
        backend="tilelang",
        iteration=7,
        speedup=1.381,
        scope="graph",
        gbps=3100.0,
        fraction=0.912,
        rationale="block_rows 8 -> 16",
        run_id="r1",
    )
    return commit_message(**(fields | changes))


def test_the_commit_message_has_the_result_first_then_why_then_the_run():
    assert _message() == (
        "rope[tilelang]: 1.38x over previous (graph scope), 3.10 TB/s median (0.91 of copy), iteration 7"
        "\n\nblock_rows 8 -> 16\n\nrun: r1"
    )


@pytest.mark.parametrize(
    "changes, first_line",
    [
        ({"gbps": 42.0, "fraction": None}, "rope[tilelang]: 1.38x over previous (graph scope), 42 GB/s median, "),
        ({"gbps": None, "fraction": None, "scope": None}, "rope[tilelang]: 1.38x over previous (graph scope), "),
        ({"scope": "eager", "gbps": None}, "rope[tilelang]: 1.38x over previous (eager scope) (0.91 of copy), "),
    ],
)
def test_the_commit_message_says_only_what_was_measured(changes, first_line):
    assert _message(**changes).splitlines()[0] == first_line + "iteration 7"


def _round(tmp_path, shapes_per_candidate: list[list[tuple]], statuses: list[str]) -> tuple[Deps, LoopState]:
    """A run folder with one round's records written, and the state the decide node sees."""
    folder = RunFolder.create(tmp_path, "r1")
    proposals, results = [], []
    for i, (shapes, status) in enumerate(zip(shapes_per_candidate, statuses, strict=True)):
        source = f"CONFIG = {{'block': {i}}}\n"
        path = folder.save_candidate(1, i, source)
        record = _record(shapes, status=status, stage="correctness" if status == "failed" else None)
        results.append(Evaluation(eval=folder.save_evaluation(1, i, record)))
        proposals.append(Candidate(proposal=Proposal(source=source, rationale=f"try {i}"), path=folder.relative(path)))
    deps = Deps(config=RunConfig(op="rope", backend="tilelang"), policy=None, folder=folder, workspace=None)
    return deps, LoopState(iteration=1, proposals=proposals, results=results)


def test_the_decide_node_keeps_the_fastest_passing_candidate_and_records_each_outcome(tmp_path):
    faster, fastest = [(1.05, 0.01, 1.05, 0.01)] * 4, [(1.2, 0.01, 1.2, 0.01)] * 4
    deps, state = _round(tmp_path, [faster, fastest, fastest], ["ok", "ok", "failed"])
    update = decide_node(state, Runtime(context=deps))
    assert update["accepted"] == 1
    assert [a.outcome for a in update["attempts"]] == ["rejected", "accepted", "failed"]
    # The one that passed but lost to a faster one is decided by that rule, its figures kept.
    assert [r.decision.rule for r in update["results"]] == [Rule.BEATEN, Rule.FASTER, Rule.FAILED_STAGE]
    assert [r.decision.accepted for r in update["results"]] == [False, True, False]
    assert update["attempts"][0].message == update["results"][0].decision.reason
    assert update["attempts"][0].message.endswith("; " + LABELS[Rule.BEATEN])
    decided = deps.folder.decisions()[1]
    assert decided.accepted == 1 and decided.outcomes == ["rejected", "accepted", "failed"]
    assert [decided.decision(i) for i in range(3)] == [r.decision for r in update["results"]]
    assert [decided.outcome(i) for i in range(3)] == decided.outcomes


def test_the_graph_has_the_loops_nodes_and_takes_its_dependencies_as_context():
    graph = build_graph()
    nodes = set(graph.get_graph().nodes)
    assert nodes == {"__start__", "baseline", "propose", "evaluate", "decide", "commit", "reflect", "__end__"}
    assert graph.builder.context_schema is Deps


# ---------------------------------------------------------------------------------------------- hardware notes


def _properties(name: str, sms: int, l2_mib: int, clock_khz: int = 0, bus_bits: int = 0):
    """torch.cuda.get_device_properties's stand-in: the driver's figures of a device that is not here."""

    def properties(index: int) -> SimpleNamespace:
        return SimpleNamespace(
            name=name,
            multi_processor_count=sms,
            L2_cache_size=l2_mib * 2**20,
            total_memory=80 * 2**30,
            memory_clock_rate=clock_khz,
            memory_bus_width=bus_bits,
            major=9,
            minor=0,
        )

    return properties


def _notes(tmp_path, properties, device="cuda") -> str:
    config = RunConfig(op="rope", backend="tilelang", device=device)
    deps = Deps(config=config, policy=None, folder=None, workspace=None, device_properties=properties)
    return prompts.hardware_notes(deps.device, "cuda")


@pytest.mark.parametrize(
    "name, sms, l2, curated",
    [
        ("NVIDIA H100 80GB HBM3", 132, 50, "# NVIDIA H100"),
        ("NVIDIA A100-SXM4-80GB", 108, 40, "# NVIDIA A100"),
        ("NVIDIA L40S", 142, 96, "No curated notes for this GPU"),
    ],
)
def test_the_hardware_notes_name_the_device_present_and_never_the_h200_for_another(tmp_path, name, sms, l2, curated):
    notes = _notes(tmp_path, _properties(name, sms, l2, clock_khz=2_619_000, bus_bits=5120))
    assert f"**{name}**" in notes
    assert f"{sms} SMs" in notes and f"L2 cache: {l2}.0 MiB" in notes
    assert "5120-bit bus at 2619 MHz: about 3.35 TB/s peak" in notes
    assert curated in notes
    assert "H200" not in notes


def test_the_h200_gets_its_own_notes_and_every_gpu_the_judges_l2_flush_as_it_is():
    notes = _notes(None, _properties("NVIDIA H200", 132, 60))
    assert "# NVIDIA H200" in notes
    # The judge flushes L2 before each batch (tools/evaluator/benchmark.py: Batch refill), not before every call.
    assert "L2 is flushed before each batch of calls (the judge writes a buffer twice the L2's size)" in notes
    assert "(driver's count" not in notes  # the H100's note on SXM and PCIe parts is the H100's only


def test_on_the_cpu_the_notes_say_so_and_that_timings_are_not_performance_figures():
    notes = _notes(None, _properties("NVIDIA H200", 132, 60), device="cpu")
    assert "The device is a CPU" in notes and "not performance figures" in notes
    assert "H200" not in notes
