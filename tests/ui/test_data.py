"""ui/data.py over run folders the loop wrote: the rows, tables and files the pages show.

The loop's CPU runs have the eager scope only; the two-scope run (tests/ui/judged.py) and the committed
examples (examples/runs/, from an H200) cover the graph scope.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import statistics
from pathlib import Path

import pytest

from tests.ui import judged
from tools.evaluator.decide import LABELS, Rule
from tools.evaluator.records import geomean
from tools.runfolder import RunFolder, read_record
from ui import charts, data

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "runs"
TWO_RULES = EXAMPLES / "20261202-144532-rope_qk-tilelang-3eda"  # 3 iterations rejected, by two rules
# An H200 run of the judge: 9 of its 10 candidates were stopped at the first shape slower beyond noise.
STOPPED_EARLY = EXAMPLES / "20261202-052242-rms_norm-maca_cpp-9210"


def test_runs_are_listed_with_their_counts(runs):
    rows = data.run_rows(runs.root)
    assert {r.run_id for r in rows} == {runs.search, runs.llm, runs.running}
    by_id = {r.run_id: r for r in rows}
    search, llm, running = by_id[runs.search], by_id[runs.llm], by_id[runs.running]
    assert (search.status, search.iterations, search.accepted, search.policy) == ("finished", 3, 2, "search")
    assert (llm.status, llm.iterations, llm.accepted, llm.model) == ("finished", 2, 1, "fake-model")
    assert (running.status, running.iterations, running.accepted) == ("running", 0, 0)
    assert all((r.op, r.backend) == ("rope", "torch") for r in rows)
    # delay 4 ms -> 1 ms: the best version is several times faster than the start (a CPU: eager scope only).
    assert search.best_speedup > 2 and search.best_iteration == 3
    assert (search.scope, search.speedup_scope) == ("eager", "eager")
    assert running.best_speedup == pytest.approx(1.0)


def test_runs_are_listed_newest_first_by_when_they_were_created(tmp_path):
    # Three runs made within a second of each other, as a test's are: ids and creation stamps written here,
    # the first id created last, two in the same second (the id breaks the tie), one whose run.json is not
    # written yet (its id's stamp counts).
    created = {
        "20990101-000000-rope-torch-aaaa": "2099-01-01T00:00:09+00:00",
        "20990101-000001-rope-torch-bbbb": "2099-01-01T00:00:05+00:00",
        "20990101-000001-rope-torch-cccc": "2099-01-01T00:00:05+00:00",
        "20990101-000007-rope-torch-dddd": None,
    }
    for run_id, stamp in created.items():
        folder = RunFolder.create(tmp_path, run_id)
        if stamp:
            folder.update_run(run_id=run_id, created=stamp, status="finished")
    assert [r.run_id for r in data.run_rows(tmp_path)] == [
        "20990101-000000-rope-torch-aaaa",
        "20990101-000007-rope-torch-dddd",
        "20990101-000001-rope-torch-cccc",
        "20990101-000001-rope-torch-bbbb",
    ]


def test_an_empty_or_missing_folder_has_no_runs(tmp_path):
    assert data.run_rows(tmp_path) == []
    assert data.run_rows(tmp_path / "nowhere") == []


def test_a_run_folder_just_created_is_listed_as_starting(tmp_path):
    folder = RunFolder.create(tmp_path, "20990101-000000-rope-tilelang-0000")  # before run.json is written
    (row,) = data.run_rows(tmp_path)
    assert (row.run_id, row.status, row.iterations, row.op, row.best_speedup) == (
        folder.run_id,
        "starting",
        0,
        None,
        None,
    )
    run = data.load_run(folder.path)
    assert run.rows == [] and run.best is None and run.start is None
    assert data.results_csv(folder.path).splitlines() == [",".join(data.CSV_COLUMNS)]


def test_iterations_carry_outcome_speed_and_commit(runs):
    run = data.load_run(runs.root / runs.search)
    assert [(r.iteration, r.outcome) for r in run.rows] == [
        (0, "baseline"),
        (1, "rejected"),
        (2, "accepted"),
        (3, "accepted"),
    ]
    assert [r.commit for r in run.rows if r.commit] == run.run["commits"]
    baseline, slower, *_ = run.rows
    assert baseline.geomean_vs_start == pytest.approx(1.0)
    assert {r.scope for r in run.rows} == {"eager"} and list(baseline.gbps_by_scope) == ["eager"]
    assert baseline.gbps_by_scope["eager"] == baseline.median_gbps
    assert slower.rationale.startswith("delay_ms 4 -> 8") and "slower than the best" in slower.reason
    assert slower.geomean_vs_best < 1 and slower.median_gbps < baseline.median_gbps
    assert run.best == run.rows[3] and run.best_record is not None


def test_each_decided_row_names_the_rule_of_its_recorded_decision(runs):
    run = data.load_run(runs.root / runs.search)
    assert [r.rule for r in run.rows] == ["starting kernel", "a shape slower beyond noise"] + [
        "faster beyond noise"
    ] * 2
    assert data.iteration_table(run.rows)[1]["rule"] == "a shape slower beyond noise"
    failed = data.iteration_rows(runs.root / runs.llm)[2]
    assert (failed.outcome, failed.rule) == ("failed", "incorrect")
    running = data.iteration_rows(runs.root / runs.running)[1]
    assert (running.outcome, running.rule) == ("evaluating", None)  # no decision yet: no rule


def test_the_chart_says_why_each_rejected_point_was_rejected():
    rows = data.load_run(TWO_RULES).rows
    frame = charts.chart_frame(rows, "gbps", "graph")
    rejected = frame[frame["outcome"] == "rejected"]
    assert list(rejected["rule"]) == ["within noise", "within noise", "a shape slower beyond noise"]
    entries, colours, shapes = charts.legend_scales(frame)
    assert entries == ["baseline (1)", "rejected: within noise (2)", "rejected: a shape slower beyond noise (1)"]
    assert set(frame["legend"]) == set(entries)
    assert colours[1] == colours[2] == charts.COLOURS["rejected"] and shapes[1] != shapes[2]  # one colour, two shapes
    assert shapes[1:] == [charts.RULE_SHAPES[Rule.WITHIN_NOISE], charts.RULE_SHAPES[Rule.SLOWER_SHAPE]]
    spec = charts.speed_chart(rows, {}, scope="graph").to_dict()
    tooltips = [t["field"] for layer in spec["layer"] for t in layer.get("encoding", {}).get("tooltip", [])]
    assert "rule" in tooltips and "decision" in tooltips


def test_a_candidate_stopped_early_has_only_its_ratio_to_the_best_on_the_shapes_timed():
    rows = data.load_run(STOPPED_EARLY).rows
    assert [r.partial for r in rows] == [False, True, True, False, True, True, True, True, True, True, True]
    assert (rows[2].shapes_timed, rows[2].shapes_planned, rows[2].shapes_text) == (3, 18, "3 of 18, partial")
    assert rows[3].shapes_text == "18 of 18"
    table = data.iteration_table(rows)
    # Its median (3617 GB/s over three prefill shapes) would sit beside full-set medians: it is not shown.
    assert table[2]["vs best (graph)"] == pytest.approx(1.154, abs=1e-3)
    assert table[2]["median GB/s (graph)"] is None and table[2]["vs start (graph)"] is None
    assert table[3]["median GB/s (graph)"] == pytest.approx(1773, abs=1) and table[3]["vs best (graph)"] > 1.1
    assert table[2]["verdict"] == "rejected: a shape slower beyond noise" and table[3]["verdict"] == "accepted"
    assert table[1]["what it tried"] == "threads 256 -> 512"  # the change; its why is on the iteration's page
    assert (
        table[9]["what it tried"]
        == "threads 256 -> 512, cache_packs 4 -> 2: catalogue design 'wide blocks for long rows'"
    )


def test_the_chart_compares_like_with_like():
    rows = data.load_run(STOPPED_EARLY).rows
    whole = charts.chart_frame(rows, "gbps", "graph").set_index("iteration")
    # Over the whole set of shapes: the two full evaluations are points, the nine stopped early dotted lines.
    assert list(whole.loc[whole["measured"]].index) == [0, 3]
    assert set(whole.loc[~whole["measured"], "mark"]) == {"dotted"}
    assert whole.loc[2, "speed"] == "not drawn: stopped early, timed on 3 of 18, partial"
    decided = charts.chart_frame(rows, "vs_best", "graph").set_index("iteration")
    # What decided them: every candidate a point, the ones stopped early hollow and labelled with their shapes.
    assert decided["measured"].all() and decided.loc[0, "value"] == 1.0
    assert decided.loc[2, "label"] == "3/18" and decided.loc[3, "label"] == ""
    assert decided.loc[2, "value"] == pytest.approx(1.154, abs=1e-3)
    caption = charts.chart_caption({}, "graph", "vs_best", decided)
    assert "9 candidate(s) stopped at the first shape slower beyond noise" in caption


def test_a_point_above_the_copy_line_is_flagged_as_a_measurement_error():
    rows = data.load_run(STOPPED_EARLY).rows
    frame = charts.chart_frame(rows, "gbps", "graph", ceiling=1600.0)  # below the accepted point's 1773
    assert list(frame.loc[frame["flagged"], "iteration"]) == [3]
    assert frame.loc[frame["flagged"], "check"].item() == charts.MEASUREMENT_ERROR
    assert "Ringed in red: 1 point(s) above the copy" in charts.chart_caption({}, "graph", "gbps", frame)
    levels = data.baseline_levels(data.load_run(STOPPED_EARLY).start, "gbps", "graph")
    assert not charts.chart_frame(rows, "gbps", "graph", ceiling=levels["copy roofline"])["flagged"].any()
    spec = charts.speed_chart(rows, {"copy roofline": 1600.0}, "gbps", scope="graph").to_dict()
    assert any(layer.get("mark", {}).get("color") == charts.FLAG_COLOUR for layer in spec["layer"])


def test_a_passing_candidate_beaten_in_its_round_is_rejected_by_that_rule(tmp_path):
    path = judged.write_run(tmp_path)
    iteration = path / "iterations" / "0001"
    for name in ("candidate", "eval"):
        suffix = ".py" if name == "candidate" else ".json"
        shutil.copy(iteration / f"{name}{suffix}", iteration / f"{name}-2{suffix}")
    events = [json.loads(line) for line in (path / "events.jsonl").read_text().splitlines()]
    decide = next(e for e in events if e["event"] == "decide" and e["iteration"] == 1)
    # Both candidates of the round passed the rule; the loop kept the first (the faster), as agent/graph.py does.
    decide["decisions"].append(dict(decide["decisions"][0], geomean_speedup=1.1))
    decide["outcomes"].append("rejected")
    (path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    rows = {r.label: r for r in data.iteration_rows(path)}
    assert (rows["1"].outcome, rows["1"].rule) == ("accepted", "faster beyond noise")
    assert (rows["1.2"].outcome, rows["1.2"].rule) == ("rejected", LABELS[Rule.BEATEN])
    assert rows["1.2"].decision.rule is Rule.BEATEN and rows["1"].decision.rule is Rule.FASTER


def test_a_failed_candidate_has_its_stage_and_no_speed(runs):
    rows = data.iteration_rows(runs.root / runs.llm)
    failed = rows[2]
    assert (failed.outcome, failed.failed_stage, failed.model) == ("failed", "correctness", "fake-model")
    assert failed.median_gbps is None and failed.geomean_vs_start is None
    assert failed.reason.startswith("failed at correctness")


def test_a_run_in_progress_has_an_iteration_without_eval_json(runs):
    path = runs.root / runs.running
    run_json = RunFolder(path).read_json("run.json")
    assert "iterations" not in run_json and "commits" not in run_json  # the loop had not finished
    assert not (path / "iterations" / "0001" / "eval.json").exists()
    rows = data.iteration_rows(path)
    assert [(r.iteration, r.outcome) for r in rows] == [(0, "baseline"), (1, "evaluating")]
    assert rows[1].rationale.startswith("delay_ms 4 -> 60000") and rows[1].median_gbps is None
    detail = data.iteration_detail(path, 1)
    assert detail.record is None and "+CONFIG" in detail.diff and detail.reflection is None


def test_half_written_files_are_skipped_until_complete(runs, tmp_path):
    copy = tmp_path / runs.search
    shutil.copytree(runs.root / runs.search, copy, ignore=shutil.ignore_patterns("repo", "worktree"))
    events = (copy / "events.jsonl").read_text()
    last = events.splitlines()[-1]
    with open(copy / "events.jsonl", "a") as log:  # a line caught mid-append
        log.write(last[: len(last) // 2])
    evaluation = copy / "iterations" / "0003" / "eval.json"
    text = evaluation.read_text()
    evaluation.write_text(text[: len(text) // 2])  # eval.json is written in place: caught mid-write
    assert data.read_events(copy) == data.read_events(runs.root / runs.search)
    rows = data.iteration_rows(copy)
    assert rows[3].outcome == "accepted" and rows[3].median_gbps is None
    assert data.load_run(copy).best_record is None


def test_the_stamp_changes_when_the_loop_writes(runs, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(runs.root / runs.running, copy)
    before = data.run_stamp(copy)
    (copy / "iterations" / "0001" / "eval.json").write_text(
        (runs.root / runs.running / "iterations" / "0000" / "eval.json").read_text()
    )
    assert data.run_stamp(copy) != before


def test_levels_are_the_baselines_measured_beside_the_start(runs):
    start = data.load_run(runs.root / runs.search).start
    levels = data.baseline_levels(start, "gbps")
    # Only the torch op was asked for, and the copy roofline is measured on a GPU only.
    assert list(levels) == ["torch"]
    expected = statistics.median(b.bytes_moved / (b.eager.torch.median_us * 1e3) for b in start.benchmark)
    assert levels["torch"] == pytest.approx(expected)
    speedup = data.baseline_levels(start, "vs_start")["torch"]
    first = start.benchmark[0].eager
    assert speedup == pytest.approx(first.candidate.median_us / first.torch.median_us)
    assert data.baseline_levels(start, "gbps", "graph") == {}  # no CUDA graphs on a CPU
    assert data.baseline_levels(None, "gbps") == {}
    with pytest.raises(ValueError, match="metric"):
        data.baseline_levels(start, "tflops")


def test_best_version_table_has_one_row_per_shape(runs):
    run = data.load_run(runs.root / runs.search)
    (row,) = data.best_shape_table(run.best_record, run.start)
    assert row["shape"] == "llama3.2-1b/decode1/q" and row["dtype"] == "bf16"
    start_us = run.start.benchmark[0].eager.candidate.median_us
    assert row["vs start (eager)"] == pytest.approx(start_us / row["eager µs/call"])
    assert row["eager ±"] > 0  # the judge's interval
    # A CPU has no CUDA graphs: the graph column is there, empty, and nothing says what bounds the call.
    assert row["graph µs/call"] is None and row["bound"] is None
    assert row["GB/s (eager)"] == run.best_record.benchmark[0].eager.gbps and row["% of copy (eager)"] is None


def test_correctness_table_puts_failing_checks_first_and_keeps_all(runs):
    record = data.iteration_detail(runs.root / runs.llm, 2).record
    table = data.correctness_table(record)
    assert len(table) == len(record.correctness)
    failing = [r["ok"] for r in table].count(False)
    assert 0 < failing < len(table)
    assert [r["ok"] for r in table] == [False] * failing + [True] * (len(table) - failing)
    wrong = {"hidden/seq1000-d96", "hidden/decode5-d80"}
    assert {r["shape"] for r in table if not r["ok"]} == wrong | {f"camp/{shape}" for shape in wrong}
    assert table[0]["first bad index"].startswith("(") and "out of tolerance" in table[0]["message"]


def test_timing_table_has_the_candidate_and_what_was_timed_beside_it(runs):
    record = data.iteration_detail(runs.root / runs.search, 2).record
    assert data.timing_scopes(record) == ["eager"]
    (row,) = data.timing_table(record, "eager")
    eager = record.benchmark[0].eager
    assert row["candidate us"] == eager.candidate.median_us and row["batches"] == eager.candidate.batches
    assert row["CI low us"] <= row["candidate us"] <= row["CI high us"]
    assert row["best us"] == eager.incumbent.median_us and row["vs best"] > 1
    assert row["vs best low"] <= row["vs best"] <= row["vs best high"]
    assert row["torch us"] and row["compile us"] is None and row["method"] == "wall"
    assert data.timing_table(record) == [row]  # no scope asked: the decision scope


def test_results_csv_has_a_row_per_iteration_and_shape(runs):
    path = runs.root / runs.llm
    lines = list(csv.DictReader(io.StringIO(data.results_csv(path))))
    shapes = {(line["shape"], line["dtype"]) for line in lines}
    assert ("llama3.2-1b/decode1/q", "bf16") in shapes and any(s.startswith("hidden/") for s, _ in shapes)
    assert [int(line["iteration"]) for line in lines] == sorted(i for i in (0, 1, 2) for _ in shapes)
    timed = [line for line in lines if line["shape"] == "llama3.2-1b/decode1/q"]
    assert [line["outcome"] for line in timed] == ["baseline", "accepted", "failed"]
    assert float(timed[1]["speedup_vs_incumbent"]) > 1 and timed[1]["commit"]
    # A CPU: one scope per timed shape, eager, which is the decision scope.
    assert [(line["scope"], line["decides"]) for line in timed[:2]] == [("eager", "True")] * 2
    assert float(timed[1]["speedup_vs_incumbent_low"]) <= float(timed[1]["speedup_vs_incumbent"])
    # Right on the named shape, wrong at head_dim 96: the failure is in the hidden shape's row, and nothing is timed.
    assert timed[2]["correct"] == "True" and timed[2]["failed_stage"] == "correctness" and timed[2]["gbps"] == ""
    assert timed[2]["scope"] == ""
    wrong = [line for line in lines if line["shape"] == "hidden/seq1000-d96"]
    assert [line["correct"] for line in wrong] == ["True", "True", "False"]


def test_iteration_detail_has_the_files_and_the_commit(runs):
    accepted = data.iteration_detail(runs.root / runs.llm, 1)
    assert accepted.row.outcome == "accepted" and accepted.candidates == 1
    assert '+CONFIG = {"delay_ms": 2}' in accepted.diff
    assert "halve the delay" in accepted.response and "## user" in accepted.prompt
    assert "Halving the delay paid off" in accepted.reflection
    assert accepted.commit_message.startswith("rope[torch]: ") and f"run: {runs.llm}" in accepted.commit_message
    assert accepted.generated == [] and accepted.profile is None  # a torch kernel: nothing generated or profiled
    searched = data.iteration_detail(runs.root / runs.search, 1)
    assert searched.prompt is None and searched.response is None and searched.commit_sha is None
    assert data.iteration_detail(runs.root / runs.search, 9) is None


def test_a_copied_run_folder_finds_its_repository_or_falls_back_to_the_log(runs, tmp_path):
    source = runs.root / runs.search
    sha = data.load_run(source).run["commits"][-1]
    moved = tmp_path / "moved" / runs.search
    shutil.copytree(source, moved)
    # Another machine: the recorded worktree path does not exist there, the repo beside run.json does.
    assert data.commit_message(moved, {"workspace": {"worktree": str(tmp_path / "gone")}}, sha).startswith("rope[")
    bare = tmp_path / "bare" / runs.search
    shutil.copytree(source, bare, ignore=shutil.ignore_patterns("repo", "worktree"))
    RunFolder(bare).update_run(workspace={"worktree": str(tmp_path / "gone")})
    assert data.commit_message(bare, {}, sha) is None
    detail = data.iteration_detail(bare, 3)
    assert detail.commit_sha == sha and detail.commit_message.startswith("rope[torch]: ")


def test_a_worktree_recorded_relative_to_the_repository_is_found(runs, tmp_path):
    source = runs.root / runs.search
    sha = data.load_run(source).run["commits"][-1]
    checkout = tmp_path / "checkout"
    moved = checkout / "runs" / runs.search
    shutil.copytree(source, moved, ignore=shutil.ignore_patterns("repo", "worktree"))
    shutil.copytree(source / "repo", checkout / "kept" / "repo")
    # Recorded relative to the repository root, whatever the working directory of the reader.
    assert data.commit_message(moved, {"workspace": {"worktree": "kept/repo"}}, sha).startswith("rope[torch]: ")
    absolute = {"workspace": {"worktree": str(checkout / "kept" / "repo")}}
    assert data.commit_message(moved, absolute, sha).startswith("rope[torch]: ")


def test_environment_rows_name_the_device_and_versions(runs):
    rows = {r["item"]: r["value"] for r in data.environment_rows(data.load_run(runs.root / runs.search).run)}
    assert rows["device"] == "CPU (no GPU visible)" and rows["torch"].startswith("2.")
    assert data.environment_rows({}) == []


def test_environment_and_confinement_of_one_evaluation(runs):
    record = data.iteration_detail(runs.root / runs.search, 1).record
    environment = {r["item"]: r["value"] for r in data.record_environment_rows(record)}
    assert environment["device"] == "CPU (no GPU visible)"
    confinement = {r["item"]: r["value"] for r in data.confinement_rows(record)}
    assert confinement["mode"].startswith(record.confinement.mode) and confinement["environment"] == "allow-list"
    assert {"uid separation", "network", "judge dumpable", "transport"} <= set(confinement)
    assert data.confinement_rows(None) == [] and data.record_environment_rows(None) == []


# ---------------------------------------------------------------------------------------------- two scopes


@pytest.fixture(scope="module")
def two_scopes(tmp_path_factory) -> Path:
    return judged.write_run(tmp_path_factory.mktemp("judged"))


def test_a_record_with_both_scopes_has_a_column_for_each_and_the_decision_scope_named(two_scopes):
    run = data.load_run(two_scopes)
    assert (run.summary.scope, run.summary.speedup_scope) == ("graph", "graph")
    assert run.summary.best_speedup == pytest.approx(geomean([4 / 3, 18 / 15]))  # graph times, start / best
    decode, prefill = data.best_shape_table(run.best_record, run.start)
    assert (decode["eager µs/call"], decode["graph µs/call"], decode["bound"]) == (10.0, 3.0, "host")
    assert (prefill["eager µs/call"], prefill["graph µs/call"], prefill["bound"]) == (16.0, 15.0, "device")
    assert decode["eager ±"] == pytest.approx(2) and decode["graph ±"] == pytest.approx(2)
    # GB/s, % of copy and speedups are the decision scope's, graph, and say so.
    assert decode["GB/s (graph)"] == pytest.approx(judged.BYTES[judged.DECODE] / 3.0 / 1e3)
    assert decode["% of copy (graph)"] == pytest.approx(100 * 2 / 3)
    assert decode["vs start (graph)"] == pytest.approx(4 / 3) and decode["vs torch (graph)"] == pytest.approx(10 / 3)
    assert not any(key.endswith("(eager)") for key in decode)
    formats = data.number_formats(decode)
    assert formats["eager µs/call"] == "%.2f" and formats["graph ±"] == "±%.1f%%" and formats["vs start (graph)"]


def test_a_record_with_both_scopes_has_a_timing_table_per_scope(two_scopes):
    record = read_record(two_scopes / "iterations" / "0001" / "eval.json")
    assert data.timing_scopes(record) == ["eager", "graph"]
    eager, graph = (data.timing_table(record, s)[0] for s in ("eager", "graph"))
    assert (eager["candidate us"], graph["candidate us"]) == (10.0, 3.0)
    assert (eager["method"], graph["method"]) == ("eager", "graph")
    assert (eager["best us"], graph["best us"]) == (12.0, 4.0)
    assert (eager["torch us"], graph["copy us"]) == (30.0, 2.0)
    assert eager["self-reported us"] == pytest.approx(9.0) and graph["self-reported us"] is None
    assert graph["vs best"] == pytest.approx(4 / 3) and graph["vs best low"] < graph["vs best"] < graph["vs best high"]


def test_a_shape_without_a_graph_timing_falls_back_to_eager_and_says_why(two_scopes):
    run = data.load_run(two_scopes)
    record = read_record(two_scopes / "iterations" / "0002" / "eval.json")
    assert record.decision_scope() == "eager" and data.complete_scopes(record) == ["eager"]
    decode, prefill = data.best_shape_table(record, run.start)
    assert decode["graph µs/call"] is None and decode["bound"] is None and "GB/s (eager)" in decode
    assert prefill["graph µs/call"] == 16.0 and prefill["bound"] == "device"  # graph timed there, eager decides
    (graph_decode, _) = data.timing_table(record, "graph")
    assert graph_decode["candidate us"] is None and judged.GRAPH_ERROR in graph_decode["note"]
    assert judged.GRAPH_ERROR in data.timing_table(record, "eager")[0]["errors"]
    # Its graph median would be of one shape only: the chart has no graph-scope figure for it.
    rows = {r.iteration: r for r in run.rows}
    assert rows[2].scope == "eager" and list(rows[2].gbps_by_scope) == ["eager"]
    assert list(rows[1].gbps_by_scope) == ["eager", "graph"] and rows[1].scope == "graph"
    assert data.run_scope(run.rows, run.start) == "graph" and data.chart_scopes(run.rows) == ["graph", "eager"]
    table = data.iteration_table(run.rows)
    assert [r["scope"] for r in table] == ["graph", "graph", "eager"]
    assert "median GB/s (decision scope)" in table[0]  # the rows differ: each is its own decision scope


def test_levels_come_from_the_scope_asked_for(two_scopes):
    start = data.load_run(two_scopes).start
    graph, eager = data.baseline_levels(start, "gbps", "graph"), data.baseline_levels(start, "gbps", "eager")
    assert list(graph) == ["torch", "copy roofline"] == list(eager)
    assert graph == data.baseline_levels(start, "gbps")  # the start's decision scope
    expected = statistics.median(judged.BYTES[s] / judged.COPY_US["graph"][s] / 1e3 for s in judged.BYTES)
    assert graph["copy roofline"] == pytest.approx(expected) and eager["copy roofline"] < graph["copy roofline"]


def test_the_csv_has_a_row_per_iteration_shape_and_scope(two_scopes):
    lines = list(csv.DictReader(io.StringIO(data.results_csv(two_scopes))))
    assert [(int(line["iteration"]), line["shape"], line["scope"]) for line in lines] == [
        (0, judged.DECODE, "eager"),
        (0, judged.DECODE, "graph"),
        (0, judged.PREFILL, "eager"),
        (0, judged.PREFILL, "graph"),
        (1, judged.DECODE, "eager"),
        (1, judged.DECODE, "graph"),
        (1, judged.PREFILL, "eager"),
        (1, judged.PREFILL, "graph"),
        (2, judged.DECODE, "eager"),  # graph capture failed there
        (2, judged.PREFILL, "eager"),
        (2, judged.PREFILL, "graph"),
    ]
    by = {(line["iteration"], line["shape"], line["scope"]): line for line in lines}
    eager, graph = by[("1", judged.DECODE, "eager")], by[("1", judged.DECODE, "graph")]
    assert (float(eager["median_us"]), float(graph["median_us"])) == (10.0, 3.0)
    assert (eager["decides"], graph["decides"]) == ("False", "True") and eager["bound"] == graph["bound"] == "host"
    assert (eager["method"], graph["method"], graph["batches"], graph["calls_per_batch"]) == (
        "eager",
        "graph",
        "10",
        "50",
    )
    assert float(graph["speedup_vs_incumbent"]) == pytest.approx(4 / 3) and float(graph["roofline_us"]) == 2.0
    assert float(eager["ci_low_us"]) < 10 < float(eager["ci_high_us"])
    assert by[("2", judged.DECODE, "eager")]["decides"] == "True"
    assert judged.GRAPH_ERROR in by[("2", judged.DECODE, "eager")]["errors"]
    assert lines[0].keys() == set(data.CSV_COLUMNS)
