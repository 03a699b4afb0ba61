"""Each page of the app under Streamlit's AppTest, over run folders the loop wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from tests.ui import judged
from tools.runfolder import RunFolder

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"


def open_page(root: Path, page: str | None = None, **params: str) -> AppTest:
    """The app over `root`, on `page` (a script under ui/views/) with `params` in the query string."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["runs_dir"] = str(root)
    at.run()
    if page:
        at.switch_page(page)  # the navigation registers the pages on the first run
        at.query_params.update(params)
        at.run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def chart(at: AppTest) -> tuple[dict, list[pd.DataFrame], list[str]]:
    """The page's one chart: its Vega-Lite spec, its data sets and the selections it reports."""
    (element,) = at.get("vega_lite_chart")
    frames = [pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in element.proto.datasets]
    return json.loads(element.proto.spec), frames, list(element.proto.selection_mode)


def test_runs_page_lists_runs_newest_first_and_filters_them(runs):
    at = open_page(runs.root)
    assert at.title[0].value == "Runs"
    table = at.dataframe[0].value
    # Newest first (the order itself is tested on stamps written by hand: tests/ui/test_data.py).
    assert set(table["run"]) == {runs.search, runs.llm, runs.running}
    assert list(table["started"]) == sorted(table["started"], reverse=True)
    for column in ("op", "backend", "policy", "model", "started", "iterations", "accepted", "best speedup"):
        assert column in table.columns
    assert {"best % of copy", "status", "scope"} <= set(table.columns)
    row = table.set_index("run").loc[runs.search]
    assert (row["status"], row["iterations"], row["accepted"], row["scope"]) == ("finished", 3, 2, "eager")

    at.multiselect(key="filter_status").select("running").run()
    assert list(at.dataframe[0].value["run"]) == [runs.running]
    at.multiselect(key="filter_status").unselect("running").select("finished").run()
    assert set(at.dataframe[0].value["run"]) == {runs.search, runs.llm}


def test_runs_page_on_an_empty_folder_says_how_to_start(tmp_path):
    at = open_page(tmp_path)
    assert "No runs under" in texts(at.info) and "agent optimize" in texts(at.info)
    assert not at.dataframe


def test_picking_a_run_opens_its_page(runs):
    at = open_page(runs.root)
    at.selectbox(key="open_run").select(runs.llm).run()
    assert not at.exception
    assert at.title[0].value == "rope[torch] · llm policy"


def test_run_page_has_chart_iterations_best_version_downloads_and_environment(runs):
    at = open_page(runs.root, "views/run.py", run=runs.search)
    assert at.title[0].value == "rope[torch] · search policy"
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["iterations"], metrics["accepted"]) == ("3", "2")

    assert {"start GB/s (eager)", "best GB/s (eager)", "best % of copy (eager)"} <= set(metrics)

    spec, frames, selections = chart(at)
    # By default what decided each candidate: its ratio to the best of its time; the start is the first best.
    assert "vs the best of its time, shapes timed, eager scope" in json.dumps(spec) and "pick" in selections
    decided = next(f for f in frames if "outcome" in f.columns)
    assert decided["value"][0] == 1.0 and decided["value"][1] < 1 < decided["value"][2]
    assert not decided["partial"].any() and set(decided["shapes"]) == {"1 of 1"}
    at.button_group(key="metric").set_value("gbps").run()
    spec, frames, selections = chart(at)
    assert "median GB/s over shapes, eager scope" in json.dumps(spec) and "pick" in selections
    assert "Speed per iteration, eager scope" in texts(at.subheader)
    assert [b.key for b in at.button_group] == ["metric"]  # one scope: no scope control
    points = next(f for f in frames if "outcome" in f.columns)
    assert list(points["outcome"]) == ["baseline", "rejected", "accepted", "accepted"]
    # The rejected point says why, in its legend entry (with the count) and its tooltip: the recorded rule.
    assert list(points["legend"]) == [
        "baseline (1)",
        "rejected: a shape slower beyond noise (1)",
        "accepted (2)",
        "accepted (2)",
    ]
    colour = next(layer["encoding"]["color"] for layer in spec["layer"] if "color" in layer.get("encoding", {}))
    assert colour["field"] == "legend" and "rejected: a shape slower beyond noise (1)" in colour["scale"]["domain"]
    assert any(t["field"] == "rule" for layer in spec["layer"] for t in layer.get("encoding", {}).get("tooltip", []))
    levels = next(f for f in frames if "level" in f.columns)
    assert list(levels["level"]) == ["torch"]  # only the torch op was asked for; no copy roofline on a CPU
    # The caption names what is drawn, and nothing that is not.
    caption = next(c for c in texts(at.caption).splitlines() if c.startswith("Each point"))
    assert "torch reference op" in caption and "eager scope" in caption
    assert not any(word in caption for word in ("torch.compile", "Liger", "copy"))
    iterations, best, *_ = at.dataframe
    assert list(iterations.value["outcome"]) == ["baseline", "rejected", "accepted", "accepted"]
    assert iterations.value["rule"][1] == "a shape slower beyond noise"
    assert list(iterations.value["scope"]) == ["eager"] * 4 and "median GB/s (eager)" in iterations.value.columns
    assert list(iterations.value["verdict"])[:2] == ["baseline", "rejected: a shape slower beyond noise"]
    assert list(iterations.value["what it tried"])[1] == "delay_ms 4 -> 8"
    assert "Best version: iteration 3" in texts(at.subheader)
    assert list(best.value["shape"]) == ["llama3.2-1b/decode1/q"] and best.value["vs start (eager)"][0] > 2
    assert {"eager µs/call", "graph µs/call", "bound", "GB/s (eager)"} <= set(best.value.columns)

    labels = [b.label for b in at.download_button]
    assert labels == ["⬇ prompts.md", "⬇ reflection.md", "⬇ results.csv"]
    assert not any(b.proto.disabled for b in at.download_button)
    environment = at.table[0].value
    assert environment.loc["device", "value"] == "CPU (no GPU visible)" and "torch" in environment.index
    assert "llama3.2-1b/decode1/q" in at.table[1].value.loc["shapes", "value"]


def test_run_page_chart_switches_to_speedup_over_the_start(runs):
    at = open_page(runs.root, "views/run.py", run=runs.llm)
    at.button_group(key="metric").set_value("vs_start").run()
    spec, frames, selections = chart(at)
    assert "speedup over the starting kernel" in json.dumps(spec) and "pick_unmeasured" in selections
    points = next(f for f in frames if "outcome" in f.columns)
    failed = points.set_index("iteration").loc[2]
    assert failed["outcome"] == "failed" and not failed["measured"] and failed["stage"] == "correctness"
    assert points.set_index("iteration").loc[0, "value"] == 1.0


def test_run_page_of_a_run_in_progress(runs):
    at = open_page(runs.root, "views/run.py", run=runs.running)
    assert "In progress" in texts(at.info) and "evaluate_start" in texts(at.info)
    assert list(at.dataframe[0].value["outcome"]) == ["baseline", "evaluating"]
    assert "Best version: iteration 0" in texts(at.subheader)


def test_run_page_of_an_unknown_run_says_so(runs):
    at = open_page(runs.root, "views/run.py", run="no-such-run")
    assert "No run `no-such-run`" in texts(at.warning)


def test_iteration_page_of_a_failed_candidate_shows_errors_diff_prompt_and_reply(runs):
    at = open_page(runs.root, "views/iteration.py", run=runs.llm, iteration="2")
    assert at.title[0].value == "Iteration 2"
    assert "Failed at correctness." in texts(at.error)
    record = RunFolder(runs.root / runs.llm).read_json("iterations/0002/eval.json")["correctness"]
    cases = len({(c["shape"], c["dtype"]) for c in record})
    # The two hidden shapes with head_dim 80 and 96, and the same two in the camp's form (camp/...).
    assert f"checks failed, on 4 of {cases} (shape, dtype)" in texts(at.error)
    assert "hidden/seq1000-d96" in texts(at.markdown) and "hidden/decode5-d80" in texts(at.markdown)
    codes = {c.language: c.value for c in at.code}
    assert "+    out.copy_(result * 2 if x.shape[-1] in (80, 96) else result)" in codes["diff"]
    # Long lines (a CONFIG dict) wrap instead of running off the page edge.
    assert all(c.proto.wrap_lines for c in at.code if c.language in ("diff", "python"))
    prompts = [c.value for c in at.code if c.language == "markdown"]
    # The proposal's prompt and reply, then the reflection's prompt and reply (each saved with the iteration).
    assert len(prompts) == 4 and "## user" in prompts[0] and "special-case odd head sizes" in prompts[1]
    assert "## user" in prompts[2] and "The special case broke head_dim 80 and 96" in prompts[3]
    checks = next(d.value for d in at.dataframe if "max abs err" in d.value.columns)
    assert not checks["ok"].iloc[0] and checks["ok"].iloc[-1] and len(checks) == len(record)
    assert "The special case broke head_dim 80 and 96" in texts(at.markdown)


def test_iteration_page_of_an_accepted_candidate_shows_its_commit(runs):
    sha = RunFolder(runs.root / runs.search).read_json("run.json")["commits"][-1]
    at = open_page(runs.root, "views/iteration.py", run=runs.search, iteration="3")
    assert "Accepted." in texts(at.success)
    assert sha in texts(at.markdown)
    message = next(c.value for c in at.code if c.language == "text")
    assert message.startswith("rope[torch]: ") and f"run: {runs.search}" in message
    timings = next(d.value for d in at.dataframe if "best us" in d.value.columns)
    assert list(timings["shape"]) == ["llama3.2-1b/decode1/q"] and timings["vs best"][0] > 1
    assert "No prompt or reply: the search policy" in texts(at.caption)
    assert {m.label for m in at.metric} >= {"median GB/s (eager)", "vs best of its time (eager)"}
    assert "**eager scope** · decides" in texts(at.markdown)
    # The environment tab: where it ran, and how the runners were confined.
    environment = next(t.value for t in at.table if "device" in t.value.index)
    assert environment.loc["device", "value"] == "CPU (no GPU visible)"
    confinement = next(t.value for t in at.table if "uid separation" in t.value.index)
    assert confinement.loc["environment", "value"] == "allow-list"


def test_iteration_page_of_a_rejected_candidate_names_the_rule(runs):
    at = open_page(runs.root, "views/iteration.py", run=runs.search, iteration="1")
    warning = texts(at.warning)
    assert warning.startswith("**Rejected: a shape slower beyond noise.** ") and "slower than the best" in warning


def test_iteration_page_of_a_candidate_being_evaluated(runs):
    at = open_page(runs.root, "views/iteration.py", run=runs.running, iteration="1")
    assert "No evaluation record yet" in texts(at.info)
    assert '+CONFIG = {"delay_ms": 60000}' in next(c.value for c in at.code if c.language == "diff")


def test_iteration_page_of_the_starting_kernel_shows_its_source(runs):
    at = open_page(runs.root, "views/iteration.py", run=runs.search, iteration="0")
    assert at.title[0].value == "Iteration 0 · starting kernel"
    source = next(c for c in at.code if c.language == "python")
    assert 'CONFIG = {"delay_ms": 4}' in source.value and source.proto.wrap_lines
    missing = open_page(runs.root, "views/iteration.py", run=runs.search, iteration="42")
    assert "has no iteration 42" in texts(missing.warning)


def test_run_page_of_a_run_with_both_scopes(judged_root):
    at = open_page(judged_root, "views/run.py", run=judged.RUN_ID)
    metrics = {m.label: m.value for m in at.metric}
    assert {"start GB/s (graph)", "best GB/s (graph)", "best % of copy (graph)"} <= set(metrics)
    at.button_group(key="metric").set_value("gbps").run()
    spec, frames, _ = chart(at)
    assert "median GB/s over shapes, graph scope" in json.dumps(spec)
    points = next(f for f in frames if "outcome" in f.columns).set_index("iteration")
    # Iteration 2 lost its graph timing on one shape: not drawn in the graph scope.
    assert list(points["measured"]) == [True, True, False] and "not timed in the graph scope" in points.loc[2, "speed"]
    levels = {f["level"][0] for f in frames if "level" in f.columns}
    assert levels == {"torch", "copy roofline"}
    caption = next(c for c in texts(at.caption).splitlines() if c.startswith("Each point"))
    assert "graph scope" in caption and "copy of the same bytes" in caption and "Liger" not in caption
    iterations, best, *_ = at.dataframe
    assert list(iterations.value["scope"]) == ["graph", "graph", "eager"]
    assert list(best.value["bound"]) == ["host", "device"]
    assert {"eager µs/call", "eager ±", "graph µs/call", "graph ±", "GB/s (graph)", "vs start (graph)"} <= set(
        best.value.columns
    )

    at.button_group(key="scope").set_value("eager").run()
    spec, frames, _ = chart(at)
    assert "median GB/s over shapes, eager scope" in json.dumps(spec)
    assert list(next(f for f in frames if "outcome" in f.columns)["measured"]) == [True, True, True]
    assert "Speed per iteration, eager scope" in texts(at.subheader)


def test_iteration_page_of_a_run_with_both_scopes(judged_root):
    at = open_page(judged_root, "views/iteration.py", run=judged.RUN_ID, iteration="1")
    assert "Accepted." in texts(at.success)
    assert {m.label: m.value for m in at.metric}["vs best of its time (graph)"] == "1.25x"
    assert "**eager scope**: " in texts(at.markdown) and "**graph scope** · decides" in texts(at.markdown)
    shapes = next(d.value for d in at.dataframe if "bound" in d.value.columns)
    assert list(shapes["bound"]) == ["host", "device"] and list(shapes["graph µs/call"]) == [3.0, 15.0]
    tables = [d.value for d in at.dataframe if "candidate us" in d.value.columns]
    assert [list(t["method"]) for t in tables] == [["eager", "eager"], ["graph", "graph"]]
    confinement = next(t.value for t in at.table if "uid separation" in t.value.index)
    assert confinement.loc["uid separation", "value"] == "yes" and confinement.loc["network", "value"] == "isolated"
    device = next(t.value for t in at.table if "device" in t.value.index)
    assert device.loc["device", "value"] == "NVIDIA H200"
