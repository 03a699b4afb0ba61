"""The run folder: where its records' paths point on this machine, and which file is the run's best version."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.runfolder import HOLD_FILE, RunBusyError, RunFolder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "runs"
MACA = "20261202-052242-rms_norm-maca_cpp-9210"  # iteration 3 accepted
NOTHING = "20261202-144532-rope_qk-tilelang-3eda"  # nothing accepted


def test_a_relative_path_is_in_the_run_folder(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.iteration_dir(1) / "candidate.py"
    assert folder.relative(candidate) == "iterations/0001/candidate.py"
    assert folder.locate("iterations/0001/candidate.py") == candidate


def test_an_absolute_path_is_where_it_says(tmp_path):
    folder = RunFolder.create(tmp_path / "here", "r1")
    assert folder.locate(str(tmp_path / "k.py")) == tmp_path / "k.py"


def test_the_workspace_is_located_in_the_run_folder(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    (folder.path / "worktree").mkdir()
    workspace = {"branch": "b", "kernel_relpath": "kernels/rope/tilelang.py", "base_commit": "0" * 40}
    folder.update_run(workspace={**workspace, "worktree": "worktree", "own_repository": False})
    assert folder.workspace().worktree == folder.path / "worktree"


def test_the_best_candidate_is_the_accepted_file_the_judge_evaluated(tmp_path):
    run = shutil.copytree(EXAMPLES / MACA, tmp_path / MACA)
    assert RunFolder(run).best_candidate() == run / "iterations" / "0003" / "candidate.py"
    assert RunFolder(EXAMPLES / NOTHING).best_candidate() is None


def test_a_best_candidate_edited_after_the_run_is_refused(tmp_path):
    run = shutil.copytree(EXAMPLES / MACA, tmp_path / MACA)
    best = run / "iterations" / "0003" / "candidate.py"
    best.write_text(best.read_text() + "# edited\n")
    with pytest.raises(RuntimeError, match="not the file the judge evaluated"):
        RunFolder(run).best_candidate()


def test_messages_name_the_runs_files_relative_to_it(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.path.resolve() / "iterations" / "0001" / "candidate.py"
    folder.event("evaluate_end", message=f"other users cannot read {candidate}; see {ROOT / 'tools' / 'paths.py'}")
    assert folder.events()[0]["message"] == "other users cannot read iterations/0001/candidate.py; see tools/paths.py"


def test_generated_source_names_the_runs_files_relative_to_it(tmp_path):
    from tools.evaluator.records import CompileInfo, EvalRecord, KernelSource

    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.iteration_dir(1).resolve() / "candidate.py"
    # maca_cpp sources carry `#line` directives with the files' paths on the machine that built them.
    text = f'#line 66 "{ROOT / "kernels" / "cpp_support.py"}"\n#line 33 "{candidate}"\n'
    record = EvalRecord(
        op="rms_norm",
        backend="maca_cpp",
        candidate=str(candidate),
        candidate_sha256="0" * 64,
        harness_sha256="0" * 64,
        started="2026-12-02T00:00:00+00:00",
        dtypes=["bf16"],
        shapes=[],
        compile=CompileInfo(sources=[KernelSource(key="k", language="cuda", text=text)]),
    )
    folder.save_evaluation(1, 0, record)
    generated = folder.read_record(1).compile.sources[0].text
    assert '#line 66 "kernels/cpp_support.py"' in generated
    assert '#line 33 "iterations/0001/candidate.py"' in generated


def test_a_generated_source_is_stored_once_however_many_iterations_compiled_it(tmp_path):
    from tools.evaluator.records import CompileInfo, EvalRecord, KernelSource

    folder = RunFolder.create(tmp_path, "r1")
    shared, own = KernelSource(key="a", language="cuda", text="A"), KernelSource(key="b", language="cuda", text="B")
    for iteration, sources in ((0, [shared]), (1, [shared, own])):
        record = EvalRecord(
            op="rms_norm", backend="tilelang", candidate="c.py", candidate_sha256="0" * 64, harness_sha256="0" * 64,
            started="2026-12-02T00:00:00+00:00", dtypes=["bf16"], shapes=[], compile=CompileInfo(sources=sources),
        )  # fmt: skip
        folder.save_evaluation(iteration, 0, record)
    assert sorted(p.read_text() for p in (folder.path / "sources").iterdir()) == ["A", "B"]
    assert "sources" not in folder.record(1).read_text()  # eval.json holds no source text
    assert [(s.key, s.text) for s in folder.read_record(1).compile.sources] == [("a", "A"), ("b", "B")]


HOLDER = (
    "import sys; from tools.runfolder import RunFolder;"
    "hold = RunFolder(sys.argv[1]).hold(); hold.__enter__(); print('held', flush=True); sys.stdin.read()"
)


def test_a_run_has_one_live_holder_and_a_killed_holder_frees_it(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder.path)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout.readline() == b"held\n"
        with pytest.raises(RunBusyError, match=f"run r1 is being run by pid {holder.pid}"):
            with folder.hold():
                pass
    finally:
        holder.kill()  # SIGKILL: no chance to let go itself
        holder.wait()
    with folder.hold():
        assert (folder.path / HOLD_FILE).read_text() == f"pid {os.getpid()}\n"


def test_a_folder_named_relative_to_the_working_directory_is_found_after_a_chdir(tmp_path, monkeypatch):
    """`--runs-dir runs/x` on the command line; the loop later works inside the run's git worktree."""
    monkeypatch.chdir(tmp_path)
    folder = RunFolder(Path("runs") / "r1")
    folder.write("iterations/0000/eval.json", "{}\n")
    monkeypatch.chdir(tmp_path / "runs")
    assert folder.locate("iterations/0000/eval.json").read_text() == "{}\n"
