"""The app over the committed example runs (examples/runs/), which came from an H200, not from the CPU fixtures.

They differ from what the loop writes in a test: their git worktree (run.json's `workspace.worktree`) is on
another machine, there is no checkpoints.sqlite, history.patch is there and the copy roofline was measured. The
2026-11-29 runs are from before the judge: one timing scope, legacy (pre-judge, untrusted), which the pages say;
the 2026-12-02 runs were judged, and their pages show the graph scope.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.test_app import chart, open_page, texts
from ui.data import LEGACY_NOTE

LEGACY = "legacy (pre-judge, untrusted)"

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "runs"
ROPE = "20261129-131457-rope-tilelang-5df4"  # the one with a commit: iteration 2 was accepted
RUNS = {
    ROPE: ("rope[tilelang] · search policy", 10, LEGACY),
    "20261129-131506-rms_norm-tilelang-3451": ("rms_norm[tilelang] · search policy", 6, LEGACY),
    "20261129-132413-rope-ninetoothed-cc37": ("rope[ninetoothed] · search policy", 10, LEGACY),
    # Fourth session: the widened search (copy_tiles found) and the two-output op.
    "20261129-173941-rope-tilelang-8872": ("rope[tilelang] · search policy", 20, LEGACY),
    "20261129-174818-rope_qk-tilelang-5e5f": ("rope_qk[tilelang] · search policy", 8, LEGACY),
    # Judged (2026-12-02): the C++ backend's first run, and an iteration-time probe of rope.
    "20261202-052242-rms_norm-maca_cpp-9210": ("rms_norm[maca_cpp] · search policy", 10, "graph"),
    "20261202-051726-rope-tilelang-255d": ("rope[tilelang] · search policy", 2, "graph"),
    # Eleventh session: from rope_qk's adopted rows design, and rms_norm[ninetoothed]; no commits in either.
    "20261202-144532-rope_qk-tilelang-3eda": ("rope_qk[tilelang] · search policy", 3, "graph"),
    "20261202-145151-rms_norm-ninetoothed-0b6d": ("rms_norm[ninetoothed] · search policy", 3, "graph"),
}


def test_runs_page_lists_the_examples():
    at = open_page(EXAMPLES)
    table = at.dataframe[0].value.set_index("run")
    assert set(table.index) == set(RUNS)
    assert list(table.loc[ROPE, ["status", "iterations", "accepted"]]) == ["finished", 10, 1]
    assert table.loc[ROPE, "best speedup"] == pytest.approx(1.27, abs=0.01)
    assert dict(table["scope"]) == {run: scope for run, (_, _, scope) in RUNS.items()}
    assert LEGACY_NOTE in texts(at.caption)


@pytest.mark.parametrize("run_id", sorted(RUNS))
def test_run_page_of_an_example(run_id):
    title, iterations, scope = RUNS[run_id]
    at = open_page(EXAMPLES, "views/run.py", run=run_id)
    assert at.title[0].value == title
    assert {m.label: m.value for m in at.metric}["iterations"] == str(iterations)
    spec, frames, _ = chart(at)
    points = next(f for f in frames if "outcome" in f.columns)
    assert len(points) == iterations + 1
    # What decided each: every iteration but a failed one has a ratio to the best of its time (rope_qk's
    # iteration 6 failed to compile), those stopped early too.
    assert f"vs the best of its time, shapes timed, {scope} scope" in json.dumps(spec)
    assert list(points["measured"]) == list(points["outcome"] != "failed")
    assert (points.loc[points["measured"], "value"] > 0).all()
    at.button_group(key="metric").set_value("gbps").run()
    spec, frames, _ = chart(at)
    points = next(f for f in frames if "outcome" in f.columns)
    # Over the whole set of shapes, a candidate stopped early is not a point: its median is of other shapes.
    assert list(points["measured"]) == list((points["outcome"] != "failed") & ~points["partial"])
    levels = {f["level"][0]: f["value"][0] for f in frames if "level" in f.columns}
    assert set(levels) == {"torch", "copy roofline"} and all(v > 0 for v in levels.values())
    assert f"median GB/s over shapes, {scope} scope" in json.dumps(spec)
    # No point above the copy line is left unflagged.
    above = points["measured"] & (points["value"] > levels["copy roofline"])
    assert list(points.loc[above, "flagged"]) == [True] * int(above.sum())
    # A pre-judge page says its timings are; a judged one does not.
    assert (LEGACY_NOTE in texts(at.caption)) == (scope == LEGACY)
    iterations = at.dataframe[0].value
    assert set(iterations["scope"].dropna()) == {scope}  # a failed iteration has no scope
    assert {"vs best", "what it tried", "shapes timed"} <= {c.split(" (")[0] for c in iterations.columns}
    environment = at.table[0].value
    assert environment.loc["device", "value"] == "NVIDIA H200"
    settings = at.table[1].value
    assert "-" not in set(settings["value"])  # a lone "-" is a Markdown bullet in st.table
    assert [b.label for b in at.download_button] == ["⬇ prompts.md", "⬇ reflection.md", "⬇ results.csv"]
    assert not any(b.proto.disabled for b in at.download_button)


def test_run_page_of_the_rope_example_numbers():
    at = open_page(EXAMPLES, "views/run.py", run=ROPE)
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["accepted"], metrics["start GB/s (legacy)"], metrics["best GB/s (legacy)"]) == (
        "1",
        "108.8",
        "165.7",
    )
    iterations = at.dataframe[0].value
    assert list(iterations["outcome"]) == ["baseline", "rejected", "accepted"] + ["rejected"] * 8
    assert "Best version: iteration 2" in texts(at.subheader)
    at.button_group(key="metric").set_value("gbps").run()
    _, frames, _ = chart(at)
    levels = {f["level"][0]: f["value"][0] for f in frames if "level" in f.columns}
    assert levels["copy roofline"] == pytest.approx(229.2, abs=0.1)
    assert levels["torch"] == pytest.approx(47.7, abs=0.1)
    best = at.dataframe[1].value
    assert "legacy µs/call" in best.columns and "GB/s (legacy)" in best.columns and "graph µs/call" not in best.columns


def test_iteration_page_of_the_accepted_example():
    at = open_page(EXAMPLES, "views/iteration.py", run=ROPE, iteration="2")
    assert at.title[0].value == "Iteration 2"
    assert "Accepted." in texts(at.success) and "geomean 1.273x over the best" in texts(at.success)
    assert "e90e96295c06109cd183388556f1a969c0d40fe2" in texts(at.markdown)
    # The worktree is not on this machine: the message is the first line the event log kept.
    message = next(c.value for c in at.code if c.language == "text")
    assert message == "rope[tilelang]: 1.27x over previous, 0.17 TB/s median (0.66 of copy), iteration 2"
    diff = next(c.value for c in at.code if c.language == "diff")
    assert '-CONFIG = {"block_rows": 64, "threads": 128}' in diff
    assert '+CONFIG = {"block_rows": 32, "threads": 128}' in diff
    timings = next(d.value for d in at.dataframe if "best us" in d.value.columns)
    assert len(timings) == 32 and (timings["GB/s"] > 0).all() and (timings["method"] == "events").all()
    assert {"p10 us", "p90 us", "reps"} <= set(timings.columns)
    assert f"**{LEGACY} scope** · decides" in texts(at.markdown) and LEGACY_NOTE in texts(at.caption)
    assert "No confinement recorded" in texts(at.caption)
    assert any(c.language == "cpp" for c in at.code)  # TileLang's generated CUDA


@pytest.mark.parametrize("iteration", ["0", "1", "10"])
def test_iteration_pages_of_the_rope_example(iteration):
    at = open_page(EXAMPLES, "views/iteration.py", run=ROPE, iteration=iteration)
    assert at.title[0].value.startswith(f"Iteration {iteration}")
    if iteration == "0":
        assert "111/111 correctness checks passed" in texts(at.info)
    else:
        # The verdict names the rule its recorded decision states, then the decision itself.
        assert "Rejected: a shape slower beyond noise." in texts(at.warning)
        assert "slower than the best beyond noise (worst" in texts(at.warning)
