"""ui/data.py over run folders the loop wrote: the rows, tables and files the pages show."""

from __future__ import annotations

import csv
import io
import shutil
import statistics

import pytest

from agent.runfolder import RunFolder
from ui import data


def test_runs_are_listed_newest_first_with_their_counts(runs):
    rows = data.list_runs(runs.root)
    assert [r.run_id for r in rows] == sorted([runs.search, runs.llm, runs.running], reverse=True)
    by_id = {r.run_id: r for r in rows}
    search, llm, running = by_id[runs.search], by_id[runs.llm], by_id[runs.running]
    assert (search.status, search.iterations, search.accepted, search.policy) == ("finished", 3, 2, "search")
    assert (llm.status, llm.iterations, llm.accepted, llm.model) == ("finished", 2, 1, "fake-model")
    assert (running.status, running.iterations, running.accepted) == ("running", 0, 0)
    assert all((r.op, r.backend) == ("rope", "torch") for r in rows)
    # delay 4 ms -> 1 ms: the best version is several times faster than the start.
    assert search.best_speedup > 2 and search.best_iteration == 3
    assert running.best_speedup == pytest.approx(1.0)


def test_an_empty_or_missing_folder_has_no_runs(tmp_path):
    assert data.list_runs(tmp_path) == []
    assert data.list_runs(tmp_path / "nowhere") == []


def test_a_run_folder_just_created_is_listed_as_starting(tmp_path):
    folder = RunFolder.create(tmp_path, "20990101-000000-rope-tilelang-0000")  # before run.json is written
    (row,) = data.list_runs(tmp_path)
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
    assert slower.rationale.startswith("delay_ms 4 -> 8") and "slower than the best" in slower.reason
    assert slower.geomean_vs_best < 1 and slower.median_gbps < baseline.median_gbps
    assert run.best == run.rows[3] and run.best_record is not None


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
    # Only eager was asked for, and the copy roofline is measured on a GPU only.
    assert list(levels) == ["torch eager"]
    expected = statistics.median(b.bytes_moved / (b.eager.median_us * 1e3) for b in start.benchmark)
    assert levels["torch eager"] == pytest.approx(expected)
    speedup = data.baseline_levels(start, "vs_start")["torch eager"]
    assert speedup == pytest.approx(start.benchmark[0].candidate.median_us / start.benchmark[0].eager.median_us)
    assert data.baseline_levels(None, "gbps") == {}
    with pytest.raises(ValueError, match="metric"):
        data.baseline_levels(start, "tflops")


def test_best_version_table_has_one_row_per_shape(runs):
    run = data.load_run(runs.root / runs.search)
    (row,) = data.best_shape_table(run.best_record, run.start)
    assert row["shape"] == "llama3.2-1b/decode1/q" and row["dtype"] == "bf16"
    start_us = run.start.benchmark[0].candidate.median_us
    assert row["vs start"] == pytest.approx(start_us / row["median us"])
    assert row["GB/s"] == run.best_record.benchmark[0].gbps and row["% of copy"] is None


def test_correctness_table_puts_failing_checks_first_and_keeps_all(runs):
    record = data.iteration_detail(runs.root / runs.llm, 2).record
    table = data.correctness_table(record)
    assert len(table) == len(record.correctness)
    failing = [r["ok"] for r in table].count(False)
    assert 0 < failing < len(table)
    assert [r["ok"] for r in table] == [False] * failing + [True] * (len(table) - failing)
    assert {r["shape"] for r in table if not r["ok"]} == {"hidden/seq1000-d96", "hidden/decode5-d80"}
    assert table[0]["first bad index"].startswith("(") and "out of tolerance" in table[0]["message"]


def test_timing_table_has_the_candidate_and_what_was_timed_beside_it(runs):
    record = data.iteration_detail(runs.root / runs.search, 2).record
    (row,) = data.timing_table(record)
    assert row["best us"] == record.benchmark[0].incumbent.median_us and row["vs best"] > 1
    assert row["eager us"] and row["compile us"] is None and row["method"] == "wall"


def test_results_csv_has_a_row_per_iteration_and_shape(runs):
    path = runs.root / runs.llm
    lines = list(csv.DictReader(io.StringIO(data.results_csv(path))))
    shapes = {(line["shape"], line["dtype"]) for line in lines}
    assert ("llama3.2-1b/decode1/q", "bf16") in shapes and any(s.startswith("hidden/") for s, _ in shapes)
    assert [int(line["iteration"]) for line in lines] == sorted(i for i in (0, 1, 2) for _ in shapes)
    timed = [line for line in lines if line["shape"] == "llama3.2-1b/decode1/q"]
    assert [line["outcome"] for line in timed] == ["baseline", "accepted", "failed"]
    assert float(timed[1]["speedup_vs_incumbent"]) > 1 and timed[1]["commit"]
    # Right on the named shape, wrong at head_dim 96: the failure is in the hidden shape's row, and nothing is timed.
    assert timed[2]["correct"] == "True" and timed[2]["failed_stage"] == "correctness" and timed[2]["gbps"] == ""
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


def test_environment_rows_name_the_device_and_versions(runs):
    rows = {r["item"]: r["value"] for r in data.environment_rows(data.load_run(runs.root / runs.search).run)}
    assert rows["device"] == "CPU (no GPU visible)" and rows["torch"].startswith("2.")
    assert data.environment_rows({}) == []
