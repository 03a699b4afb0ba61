"""The run folder: where its records' paths point on this machine, and which file is the run's best version."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agent.runfolder import RunFolder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "runs"
ROPE = "20261129-131457-rope-tilelang-5df4"  # iteration 2 accepted
RMS_NORM = "20261129-131506-rms_norm-tilelang-3451"  # nothing accepted


def test_a_relative_path_is_in_the_run_folder(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.iteration_dir(1) / "candidate.py"
    assert folder.relative(candidate) == "iterations/0001/candidate.py"
    assert folder.locate("iterations/0001/candidate.py") == candidate


def test_an_old_absolute_path_of_the_run_follows_the_folder_where_it_moved(tmp_path):
    folder = RunFolder.create(tmp_path / "here", "r1")
    (folder.iteration_dir(1) / "candidate.py").write_text("x = 1\n")
    old = "/home/someone/checkout/runs/r1/iterations/0001/candidate.py"  # an older checkpoint's state
    assert folder.locate(old) == folder.path / "iterations" / "0001" / "candidate.py"
    # Not one of the run's files (or not here): the path as it was, for the error to name.
    assert folder.locate("/home/someone/checkout/runs/r1/iterations/0009/candidate.py") == Path(
        "/home/someone/checkout/runs/r1/iterations/0009/candidate.py"
    )
    assert folder.locate(str(tmp_path / "k.py")) == tmp_path / "k.py"


@pytest.mark.parametrize("recorded", ["worktree", "/old/machine/runs/r1/worktree"])
def test_the_workspace_is_located_in_the_run_folder(tmp_path, recorded):
    folder = RunFolder.create(tmp_path, "r1")
    (folder.path / "worktree").mkdir()
    workspace = {"branch": "b", "kernel_relpath": "kernels/rope/tilelang.py", "base_commit": "0" * 40}
    folder.update_run(workspace={**workspace, "worktree": recorded, "own_repository": False})
    assert folder.workspace().worktree == folder.path / "worktree"


def test_the_best_candidate_is_the_accepted_file_the_judge_evaluated(tmp_path):
    run = shutil.copytree(EXAMPLES / ROPE, tmp_path / ROPE)
    assert RunFolder(run).best_candidate() == run / "iterations" / "0002" / "candidate.py"
    assert RunFolder(EXAMPLES / RMS_NORM).best_candidate() is None


def test_a_best_candidate_edited_after_the_run_is_refused(tmp_path):
    run = shutil.copytree(EXAMPLES / ROPE, tmp_path / ROPE)
    best = run / "iterations" / "0002" / "candidate.py"
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
