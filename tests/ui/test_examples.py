"""The app over the committed example runs (examples/runs/), which came from an H200, not from the CPU fixtures.

They differ from what the loop writes in a test: their git worktree (run.json's `workspace.worktree`) is on
another machine, there is no checkpoints.sqlite, history.patch is there and the copy roofline was measured.
All three were judged: their pages show the graph scope.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.test_app import chart, open_page, texts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "runs"
MACA = "20261202-052242-rms_norm-maca_cpp-9210"  # the one with a commit: iteration 3 was accepted
RUNS = {
    MACA: ("rms_norm[maca_cpp] · search policy", 10),
    # From rope_qk's adopted rows design, and rms_norm[ninetoothed]; no commits in either.
    "20261202-144532-rope_qk-tilelang-3eda": ("rope_qk[tilelang] · search policy", 3),
    "20261202-145151-rms_norm-ninetoothed-0b6d": ("rms_norm[ninetoothed] · search policy", 3),
}


def test_runs_page_lists_the_examples():
    at = open_page(EXAMPLES)
    table = at.dataframe[0].value.set_index("run")
    assert set(table.index) == set(RUNS)
    assert list(table.loc[MACA, ["status", "iterations", "accepted"]]) == ["finished", 10, 1]
    assert table.loc[MACA, "best speedup"] == pytest.approx(1.20, abs=0.01)
    assert set(table["scope"]) == {"graph"}


@pytest.mark.parametrize("run_id", sorted(RUNS))
def test_run_page_of_an_example(run_id):
    title, iterations = RUNS[run_id]
    at = open_page(EXAMPLES, "views/run.py", run=run_id)
    assert at.title[0].value == title
    assert {m.label: m.value for m in at.metric}["iterations"] == str(iterations)
    spec, frames, _ = chart(at)
    points = next(f for f in frames if "outcome" in f.columns)
    assert len(points) == iterations + 1
    # What decided each: every candidate has a ratio to the best of its time, those stopped early too.
    assert "vs the best of its time, shapes timed, graph scope" in json.dumps(spec)
    assert points["measured"].all() and (points["value"] > 0).all()
    at.button_group(key="metric").set_value("gbps").run()
    spec, frames, _ = chart(at)
    points = next(f for f in frames if "outcome" in f.columns)
    # Over the whole set of shapes, a candidate stopped early is not a point: its median is of other shapes.
    assert list(points["measured"]) == list(~points["partial"])
    levels = {f["level"][0]: f["value"][0] for f in frames if "level" in f.columns}
    assert {"torch", "copy roofline"} <= set(levels) and all(v > 0 for v in levels.values())
    assert "median GB/s over shapes, graph scope" in json.dumps(spec)
    # No point above the copy line is left unflagged.
    above = points["measured"] & (points["value"] > levels["copy roofline"])
    assert list(points.loc[above, "flagged"]) == [True] * int(above.sum())
    iterations = at.dataframe[0].value
    assert set(iterations["scope"].dropna()) == {"graph"}
    assert {"vs best", "what it tried", "shapes timed"} <= {c.split(" (")[0] for c in iterations.columns}
    environment = at.table[0].value
    assert environment.loc["device", "value"] == "NVIDIA H200"
    settings = at.table[1].value
    assert "-" not in set(settings["value"])  # a lone "-" is a Markdown bullet in st.table
    assert [b.label for b in at.download_button] == ["⬇ prompts.md", "⬇ reflection.md", "⬇ results.csv"]
    assert not any(b.proto.disabled for b in at.download_button)


def test_run_page_of_the_maca_example_numbers():
    at = open_page(EXAMPLES, "views/run.py", run=MACA)
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["accepted"], metrics["start GB/s (graph)"], metrics["best GB/s (graph)"]) == ("1", "1518", "1773")
    iterations = at.dataframe[0].value
    assert list(iterations["outcome"]) == ["baseline", "rejected", "rejected", "accepted"] + ["rejected"] * 7
    assert "Best version: iteration 3" in texts(at.subheader)
    at.button_group(key="metric").set_value("gbps").run()
    _, frames, _ = chart(at)
    levels = {f["level"][0]: f["value"][0] for f in frames if "level" in f.columns}
    assert levels["copy roofline"] == pytest.approx(1941.3, abs=0.1)
    assert levels["torch"] == pytest.approx(161.6, abs=0.1)
    best = at.dataframe[1].value
    assert {"eager µs/call", "graph µs/call", "GB/s (graph)"} <= set(best.columns)


def test_iteration_page_of_the_accepted_example():
    at = open_page(EXAMPLES, "views/iteration.py", run=MACA, iteration="3")
    assert at.title[0].value == "Iteration 3"
    assert "Accepted." in texts(at.success) and "geomean 1.142x over the best" in texts(at.success)
    assert "fd69f4028008a08ac49e5ad93ff14b75f99d8c22" in texts(at.markdown)
    # The worktree is not on this machine: the message is the first line the event log kept.
    message = next(c.value for c in at.code if c.language == "text")
    assert message == (
        "rms_norm[maca_cpp]: 1.14x over previous (graph scope), 1.77 TB/s median (0.80 of copy), iteration 3"
    )
    diff = next(c.value for c in at.code if c.language == "diff")
    assert '-CONFIG = {"threads": 256, "vec": 8, "rows_per_block": 1, "cache_packs": 4}' in diff
    assert '+CONFIG = {"threads": 256, "vec": 4, "rows_per_block": 1, "cache_packs": 4}' in diff
    eager, graph = (d.value for d in at.dataframe if "best us" in d.value.columns)  # a table per scope
    assert len(graph) == 18 and (graph["GB/s"] > 0).all() and (graph["method"] == "graph").all()
    assert (eager["method"] == "eager").all()
    assert "**graph scope** · decides" in texts(at.markdown)
    assert any(c.language == "cpp" for c in at.code)  # the C++ source as built, from the run's sources/


@pytest.mark.parametrize("iteration", ["0", "1", "10"])
def test_iteration_pages_of_the_maca_example(iteration):
    at = open_page(EXAMPLES, "views/iteration.py", run=MACA, iteration=iteration)
    assert at.title[0].value.startswith(f"Iteration {iteration}")
    if iteration == "0":
        assert "116/116 correctness checks passed" in texts(at.info)
    else:
        # The verdict names the rule its recorded decision states, then the decision itself.
        assert "Rejected: a shape slower beyond noise." in texts(at.warning)
        assert "slower than the best beyond noise (worst" in texts(at.warning)


@pytest.mark.parametrize(("page", "params"), [("views/run.py", {}), ("views/iteration.py", {"iteration": "3"})])
def test_every_column_is_as_wide_as_its_title(page, params):
    """st.dataframe cuts a header to its column's width (it never wraps one): at 1440 px "median GB/s (graph)" read
    "median GB/s (gra". A title needs about 6 px a character and 14 px of padding in Streamlit's grid."""
    at = open_page(EXAMPLES, page, run=MACA, **params)
    checked = 0
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        for name in list(frame.proto.column_order) or list(frame.value.columns):
            column = config.get(name, {})
            title = column.get("label") or name
            if "width" in column and isinstance(column["width"], int):
                assert column["width"] >= 14 + 6 * len(title), (name, title, column["width"])
                checked += 1
    assert checked >= 10


def test_where_vs_best_and_vs_start_differ_a_line_says_which_decides():
    # Iteration 3: 1.14x the best of its time, the starting kernel, and 1.20x the start's own evaluation.
    at = open_page(EXAMPLES, "views/iteration.py", run=MACA, iteration="3")
    (line,) = [c.value for c in at.caption if "decides" in c.value and "vs start" in c.value]
    assert "vs best of its time (here the starting kernel) decides" in line
    assert "though the best is the start" in line
