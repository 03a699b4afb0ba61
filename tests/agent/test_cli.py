"""The `agent` command line, run in a real child process as a user would."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tools.evaluator.decide import decide
from tools.evaluator.records import EvalRecord

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "runs"
MACA = "20261202-052242-rms_norm-maca_cpp-9210"  # ran on an H200 host; iteration 3 accepted
NOTHING = "20261202-144532-rope_qk-tilelang-3eda"  # accepted no version
# An absolute path of some machine: what no record or export should carry from one clone to another.
ABSOLUTE = re.compile(r"(?<![\w.-])/(?:work|tmp|home|root|Users)/")


def agent(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # Wide unless a test asks for a width: rich wraps a pipe's output at 80 columns, and a line naming a
    # tmp_path (longer under a pytest-xdist worker) or a list of columns would break where the test looks.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "agent", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def clone_with(run_id: str, tmp_path: Path) -> Path:
    """Another clone, at another path: the packages the CLI imports and one example run, nothing of ROOT's."""
    clone = tmp_path / "elsewhere" / "clone"
    for part in ("agent", "tools", "kernels", "workbench", "prompts"):
        shutil.copytree(ROOT / part, clone / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(EXAMPLES / run_id, clone / "examples" / "runs" / run_id)
    return clone


def in_clone(clone: Path, *args: str) -> subprocess.CompletedProcess:
    return agent(*args, cwd=clone, env={"PYTHONPATH": str(clone)})


def table_lines(text: str) -> list[str]:
    """The body lines of every table in rich's output: after its header rule, while they have column borders."""
    lines, inside = [], False
    for line in text.splitlines():
        inside = "╇" in line or (inside and "│" in line)
        if inside and "│" in line:
            lines.append(line)
    return lines


def shape_names(text: str) -> list[str]:
    """Shape names as the tables show them, a name broken over lines joined again (a new row has a dtype)."""
    names = []
    for line in table_lines(text):
        shape, dtype = (cell.strip() for cell in line.strip("│").split("│")[:2])  # with or without outer border
        if dtype:
            names.append(shape)
        else:
            names[-1] += shape
    return names


def test_eval_torch_backend_prints_a_table_and_writes_json(tmp_path):
    from rich.console import Console

    from agent.console import print_record
    from tools.evaluator.records import EvalRecord

    path = tmp_path / "record.json"
    args = ("eval", "rms_norm", "--backend", "torch", "--shapes", "decode1", "--device", "cpu", "--json", str(path))
    done = agent(*args, env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    assert "OK in" in done.stdout
    record = json.loads(path.read_text())
    assert record["status"] == "ok" and record["op"] == "rms_norm"
    # 80 columns on the CPU: said to be no performance figures, no GPU-only column, every name whole.
    assert "they are not performance figures" in done.stdout
    lines = done.stdout.splitlines()
    rule = next(i for i, line in enumerate(lines) if "╇" in line)  # below the titles, wrapped or not
    header = set(" ".join(line for line in lines[:rule] if "┃" in line).replace("┃", " ").split())
    assert {"vs", "torch", "eager", "µs/call"} <= header
    assert not {"graph", "bound", "copy", "compile", "liger"} & header
    assert max(map(len, done.stdout.splitlines())) <= 80 and "…" not in done.stdout
    assert set(shape_names(done.stdout)) == {c["shape"] for c in record["correctness"]}
    # Whether a name wraps depends on how wide the timings print (CI: "398.30 ±130%" let one fit): the
    # names being whole and within 80 columns is what is asserted.
    # Wide, the same table has each name on one line.
    wide = io.StringIO()
    print_record(EvalRecord.model_validate(record), Console(file=wide, width=170, color_system=None))
    assert "│ llama3-8b/decode1 " in wide.getvalue() and "…" not in wide.getvalue()
    # Stopped before the benchmark (--no-bench, or a wrong value): still the CPU's one scope, never "graph".
    untimed = EvalRecord.model_validate(record).model_copy(update={"benchmark": []})
    from tools.report import terminal_columns

    assert terminal_columns(untimed)["gbps"] == "GB/s (eager)"


def test_eval_against_another_file_times_both_in_turn(tmp_path):
    from tests.agent.tuned_candidates import TUNED_ROPE

    slow, fast = tmp_path / "slow.py", tmp_path / "fast.py"
    slow.write_text(TUNED_ROPE)  # sleeps 4 ms a call
    fast.write_text(TUNED_ROPE.replace('CONFIG = {"delay_ms": 4}', 'CONFIG = {"delay_ms": 1}'))
    common = ("eval", "rope", "--backend", "torch", "--device", "cpu", "--shapes", "decode1", "--no-compile")
    done = agent(*common, "--candidate", str(slow), "--against", str(fast), "--json", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    assert f"vs {fast} (eager scope, timed in the same rounds): geomean" in done.stdout
    record = json.loads((tmp_path / "r.json").read_text())
    ratios = [b["eager"]["speedup_vs_incumbent"]["median"] for b in record["benchmark"]]
    assert ratios and all(r > 0 for r in ratios)  # timed in the same rounds; how much slower is the machine's say
    # The line says what the loop's rule makes of the record written; which way it goes is the machine's say.
    decision = decide(EvalRecord.model_validate(record), against_best=True)
    verdict = "accept" if decision.accepted else "reject"
    assert f"as agent optimize would decide: {verdict} ({decision.reason})" in done.stdout
    missing = agent(*common, "--candidate", str(slow), "--against", str(tmp_path / "nope.py"))
    # Checked once, by the judge, before anything starts.
    assert missing.returncode == 2 and "nope.py does not exist" in missing.stderr


def test_eval_of_a_broken_candidate_exits_nonzero_with_the_stage(tmp_path):
    candidate = tmp_path / "broken.py"
    candidate.write_text("def rope(x, sin, cos, *, out=None)\n    return out\n")
    done = agent("eval", "rope", "--backend", "torch", "--candidate", str(candidate), "--device", "cpu")
    assert done.returncode == 1
    assert "static" in done.stdout and "syntax error" in done.stdout


HANGS_AT_IMPORT = "import torch\n\nwhile True:\n    pass\n\n\ndef rope(x, sin, cos, *, out=None):\n    return out\n"


@pytest.mark.parametrize(
    ("where", "doing"),
    [("import", "while importing its kernel file"), ("first call", "while making its first call on llama3.2-1b/")],
)
def test_a_hanging_kernel_file_fails_at_compile_named_as_a_hang(where, doing, tmp_path):
    from tests.tools.candidates import HANGS

    candidate = tmp_path / "hang.py"
    candidate.write_text(HANGS_AT_IMPORT if where == "import" else HANGS)
    done = agent(
        "eval", "rope", "--backend", "torch", "--candidate", str(candidate), "--device", "cpu",
        "--shapes", "decode1", "--compile-timeout", "5",
    )  # fmt: skip
    assert done.returncode == 1
    (verdict,) = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    assert "compile: the candidate runner hung: it did not answer in " in verdict, verdict
    assert doing in verdict and "past the 5 s limit of its compile stage" in verdict, verdict
    # The judge killed it: no traceback of the judge's own (its keeper's signal handling) reads as the kernel's.
    assert "Error" not in verdict and "signal" not in verdict, verdict


def test_a_long_stage_prints_elapsed_time_lines():
    from rich.console import Console

    from agent.console import HEARTBEAT_S, StageClock

    now = [100.0]
    console = Console(file=io.StringIO(), width=200)
    clock = StageClock(console, clock=lambda: now[0])
    clock.on_event({"event": "stage_start", "stage": "compile"})
    clock.on_event({"event": "progress", "stage": "compile", "done": 2, "total": 8, "label": "first calls: decode1"})
    clock.tick(100.0 + HEARTBEAT_S - 1)
    assert console.file.getvalue() == ""  # nothing before the first heartbeat
    clock.tick(100.0 + HEARTBEAT_S)
    clock.tick(100.0 + 2 * HEARTBEAT_S + 5)
    now[0] = 100.0 + 200
    clock.on_event({"event": "stage_end", "stage": "compile", "result": {"status": "failed"}})
    clock.on_event({"event": "stage_start", "stage": "correctness"})
    clock.on_event({"event": "stage_end", "stage": "correctness", "result": {"status": "ok"}})  # quick: no line
    assert console.file.getvalue().splitlines() == [
        f"  compile: running for {HEARTBEAT_S:.1f} s, first calls: decode1 (2/8)",
        "  compile: running for 1 min 5 s, first calls: decode1 (2/8)",
        "  compile: failed after 3 min 20 s",
    ]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks what happens without a GPU")
def test_eval_tilelang_without_a_gpu_says_so_and_lowers(tmp_path):
    source, record = tmp_path / "source", tmp_path / "record.json"
    done = agent(
        "eval", "rope", "--backend", "tilelang", "--shapes", "llama3-8b/decode1/q", "--source", str(source),
        "--json", str(record),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "No GPU visible" in done.stdout
    assert "lowered to CUDA source without a GPU (in a runner): 1 program(s)" in done.stdout
    (written,) = source.iterdir()
    assert written.suffix == ".cu" and "__global__ void rope_kernel" in written.read_text()
    assert not record.exists() and "no record written" in done.stdout


def test_bench_writes_json_and_markdown(tmp_path):
    done = agent(
        "bench",
        "rope",
        "--backends",
        "torch",
        "--shapes",
        "decode1",
        "--device",
        "cpu",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    from tools.results import ResultTable

    table = ResultTable.load(folder / "rope.json", "rope")
    assert [b.backend for b in table.benches] == ["torch"] and table.backend_rows("torch", "eager")
    markdown = (folder / "rope.md").read_text()
    assert "| llama3-8b/decode1/q | bf16 | ok |" in markdown


@pytest.mark.skipif(importlib.util.find_spec("liger_kernel") is not None, reason="checks a host without liger-kernel")
def test_eval_baselines_flag_asks_for_liger_and_notes_its_absence(tmp_path):
    path = tmp_path / "record.json"
    done = agent(
        "eval", "rms_norm", "--backend", "torch", "--shapes", "decode1", "--device", "cpu",
        "--baselines", "eager", "liger", "--json", str(path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "vs liger" in done.stdout and "liger-kernel not installed" in done.stdout
    record = json.loads(path.read_text())
    assert all(b["liger_status"] == "unavailable" and b["eager"]["compiled"] is None for b in record["benchmark"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks what happens without a GPU")
def test_bench_refuses_the_cpu_unless_asked():
    done = agent("bench", "rope")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("agent: error: agent bench needs a GPU") and len(done.stderr.splitlines()) == 1


def test_optimize_with_a_missing_candidate_is_bad_input_before_anything_else(tmp_path):
    done = agent("optimize", "rope", "--backend", "tilelang", "--candidate", str(tmp_path / "nope.py"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"agent: error: --candidate {tmp_path / 'nope.py'}: no such kernel file\n"


def test_compare_of_a_missing_record_says_which_and_how_to_make_one(tmp_path):
    done = agent("compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert done.returncode == 2
    assert (
        done.stderr
        == f"agent: error: A.json {tmp_path / 'a.json'}: no such file (agent infer --json PATH writes one)\n"
    )


def test_env_names_the_target_and_versions():
    done = agent("env")
    assert done.returncode == 0
    assert "target      cuda" in done.stdout and "tilelang" in done.stdout


def test_ops_reports_native_or_fallback():
    done = agent("ops", "--backend", "torch")
    assert done.returncode == 0
    rows = {line.split()[0]: line.split()[1] for line in done.stdout.splitlines()}
    assert rows == dict.fromkeys(("rope", "rope_qk", "rms_norm", "silu_mul", "add_rms_norm"), "native")
    assert len({line.index("native") for line in done.stdout.splitlines()}) == 1  # one column


def test_optimize_of_the_torch_backend_says_why_in_one_line():
    done = agent("optimize", "rope", "--backend", "torch")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "agent: error: the torch backend is the reference, not something to optimise; "
        "pick one of tilelang, ninetoothed, maca_cpp\n"
    )


def test_an_argument_error_is_one_line_without_the_usage(capsys):
    from agent.cli import main

    with pytest.raises(SystemExit) as done:
        main(["eval", "rope", "--backend", "cuda"])
    assert done.value.code == 2
    assert capsys.readouterr().err == (
        "agent eval: error: argument --backend: invalid choice: 'cuda' (choose from 'tilelang', 'ninetoothed', "
        "'maca_cpp', 'torch') (see agent eval --help)\n"
    )


def test_wrong_values_read_in_a_short_line_named_shapes_first():
    from rich.console import Console

    from agent.console import print_record
    from tools.evaluator.correctness import verdict
    from tools.evaluator.records import ShapeCorrectness

    def check(shape: str, hidden: bool) -> ShapeCorrectness:
        judges = "928 of 1024 elements out of tolerance; first at (0, 0, 0, 0): got 1.0625, expected 1.05098"
        message = f"on tensors allocated as a model does (not the judge's buffers): {judges}; on strided views "
        message += f"(a slice of a wider tensor) (not the judge's buffers): {judges}; on the judge's buffers: {judges}"
        return ShapeCorrectness(
            shape=shape,
            dims=[1],
            dtype="bf16",
            seed=7,
            hidden=hidden,
            ok=False,
            message=message,
            max_abs_err=0.01,
            max_rel_err=0.01,
        )

    hidden = [check(f"hidden/case{i}", True) for i in range(5)]
    result = verdict("correctness", [*hidden, check("llama3-8b/decode1/q", False)], None, 6)
    assert result.message == (
        "wrong on 6 shape(s) (llama3-8b/decode1/q, hidden/case0, hidden/case1, hidden/case2 and 2 more); first: "
        "llama3-8b/decode1/q bf16 seed 7: 928 of 1024 elements out of tolerance; first at (0, 0, 0, 0): got 1.0625, "
        "expected 1.05098"
    )
    record = EvalRecord.model_validate_json((EXAMPLES / MACA / "iterations" / "0001" / "eval.json").read_text())
    record = record.model_copy(update={"stages": [*record.stages[:2], result], "benchmark": []})
    record.status, record.message = "failed", f"correctness: {result.message}"
    console = Console(file=io.StringIO(), width=170, color_system=None)
    print_record(record, console)
    lines = console.file.getvalue().splitlines()
    assert sum("wrong on 6 shape(s)" in line for line in lines) == 1  # the verdict once, not in the stage list too
    assert len([line for line in lines[lines.index(next(x for x in lines if x.startswith("FAILED"))) :]]) <= 2


def test_infer_on_the_cpu_says_it_takes_small_defaults(tmp_path):
    from tests.tools.tiny_llama import write_tiny_checkpoint

    model = write_tiny_checkpoint(tmp_path / "tiny")
    done = agent("infer", "--backend", "torch", "--model", str(model), "--device", "cpu", "--iters", "2")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == "on the CPU (a 1B model decodes about 0.5 tokens/s there), small defaults: --max-new-tokens 8 " \
        "--warmup 0 (a GPU's: 32 1)"  # fmt: skip
    assert "new 8)" in done.stdout and "median of 2 after 0 warmup" in done.stdout


def test_unknown_shape_is_a_clear_error():
    done = agent("eval", "rope", "--backend", "torch", "--shapes", "prefill7", "--device", "cpu")
    assert done.returncode == 2
    assert done.stderr == (
        "agent: error: no rope shape matches ['prefill7']: its 32 shapes are named from llama3.2-1b|llama3-8b / "
        "prefill512|prefill2048|prefill8192|prefill16384|decode1|decode8|decode32|decode128 / q|k; a pattern is a "
        "whole name, one /-part of it (decode8) or a glob such as 'llama3-8b/prefill*'\n"
    )


@pytest.mark.parametrize("backend", ["torch", "tilelang"])
def test_a_missing_candidate_file_is_bad_input_with_one_message(backend, tmp_path):
    done = agent("eval", "rope", "--backend", backend, "--candidate", str(tmp_path / "nope.py"), "--device", "cpu")
    assert done.returncode == 2
    assert "--candidate" in done.stderr + done.stdout and "no such kernel file" in done.stderr + done.stdout


def test_every_command_that_reads_runs_takes_runs_dir_and_the_old_name(tmp_path, capsys):
    # In this process: the parser and `agent runs` of an empty folder (seven children would cost 15 CPU-s).
    from agent.cli import main

    for command in ("runs", "ui", "export", "resume", "adopt"):
        with pytest.raises(SystemExit) as done:
            main([command, "--help"])
        assert done.value.code == 0 and "--runs-dir" in capsys.readouterr().out, command
    assert main(["runs", "--runs", str(tmp_path)]) == 0
    assert main(["runs", "--runs-dir", str(tmp_path)]) == 0


def test_resume_of_a_finished_run_changes_nothing_and_says_so(tmp_path):
    import shutil

    example = next(p for p in sorted((ROOT / "examples" / "runs").iterdir()) if (p / "run.json").is_file())
    run = shutil.copytree(example, tmp_path / example.name)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    done = agent("resume", example.name, "--runs-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "is finished" in done.stdout and "nothing to resume" in done.stdout
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_resume_of_an_unknown_run_prints_only_the_error(tmp_path):
    done = agent("resume", "no-such-run", "--runs-dir", str(tmp_path))
    assert done.returncode == 2
    assert done.stdout.strip() == "" and "no run 'no-such-run'" in done.stderr


@pytest.mark.parametrize("command", ["export", "adopt", "resume"])
def test_an_example_run_named_without_its_folder_says_which_flag_finds_it(command, tmp_path):
    done = agent(command, MACA, "--runs-dir", str(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr
        == f"agent: error: no run '{MACA}' under {tmp_path}; it is an example run: add --runs-dir examples/runs\n"
    )


def test_the_readmes_commands_for_the_examples_work_as_typed(tmp_path):
    clone = clone_with(MACA, tmp_path)
    lines = (ROOT / "README.md").read_text().splitlines()
    typed = [line.split("#")[0].split() for line in lines if line.startswith("agent ") and "examples/runs" in line]
    assert {words[1] for words in typed} >= {"runs", "ui", "export", "adopt", "resume"}
    for words in typed:
        if words[1] == "ui":  # a server: that it finds the runs is tests/ui's
            continue
        done = in_clone(clone, *words[1:])
        # adopt may refuse, in a line that says why: this clone's kernel file is not the one the run started from
        refused = words[1] == "adopt" and done.returncode == 2 and len(done.stderr.splitlines()) == 1
        assert done.returncode == 0 or refused, (words, done.stderr)
        assert "Traceback" not in done.stderr
    assert (clone / "runs" / "exports" / MACA / "reflection.md").is_file()


def test_adopt_of_an_example_writes_the_kernel_file_of_the_clone_it_runs_in(tmp_path):
    clone = clone_with(MACA, tmp_path)
    run = clone / "examples" / "runs" / MACA
    kernel = clone / "kernels" / "rms_norm" / "maca_cpp.py"
    kernel.write_text((run / "iterations" / "0000" / "candidate.py").read_text())  # as it was when the run started
    ours = (ROOT / "kernels" / "rms_norm" / "maca_cpp.py").read_bytes()
    done = in_clone(clone, "adopt", MACA, "--runs-dir", "examples/runs")
    assert done.returncode == 0, done.stderr
    assert kernel.read_text() == (run / "iterations" / "0003" / "candidate.py").read_text()
    assert (
        done.stdout.startswith("kernels/rms_norm/maca_cpp.py now holds the best version")
        and "iteration 3" in done.stdout
    )
    assert (ROOT / "kernels" / "rms_norm" / "maca_cpp.py").read_bytes() == ours


def test_adopt_refuses_to_overwrite_an_edited_kernel_with_one_message(tmp_path):
    clone = clone_with(MACA, tmp_path)
    kernel = clone / "kernels" / "rms_norm" / "maca_cpp.py"
    kernel.write_text("# my edit\n")
    done = in_clone(clone, "adopt", MACA, "--runs-dir", "examples/runs")
    assert done.returncode == 2 and done.stdout == "" and kernel.read_text() == "# my edit\n"
    assert done.stderr.startswith("agent: error: kernels/rms_norm/maca_cpp.py changed since the run started")
    assert len(done.stderr.splitlines()) == 1


def test_adopt_of_a_run_that_accepted_nothing_leaves_the_kernel_alone(tmp_path):
    clone = clone_with(NOTHING, tmp_path)
    kernel = clone / "kernels" / "rope_qk" / "tilelang.py"
    before = kernel.read_bytes()
    done = in_clone(clone, "adopt", NOTHING, "--runs-dir", "examples/runs")
    assert done.returncode == 0, done.stderr
    assert "accepted no version" in done.stdout and kernel.read_bytes() == before


def test_export_of_an_example_in_another_clone_writes_no_absolute_path(tmp_path):
    clone = clone_with(MACA, tmp_path)
    runs = clone / "examples" / "runs"
    done = in_clone(clone, "export", MACA, "--runs-dir", str(runs), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr  # an absolute runs folder, and a folder of the user's choosing
    prompts = (tmp_path / "out" / "prompts.md").read_text()
    assert f"--candidate examples/runs/{MACA}/iterations/NNNN/candidate.py`" in prompts  # a search run's log
    for name in ("prompts.md", "reflection.md"):
        assert not ABSOLUTE.search((tmp_path / "out" / name).read_text()), name
