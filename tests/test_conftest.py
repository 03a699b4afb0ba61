"""The suite's temp-folder check (tests/conftest.py): a run that leaves a file behind fails, a clean one passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import gpu_test_lock

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")
REPO = Path(__file__).resolve().parents[1]


def inner_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, body: str, *args: str) -> pytest.RunResult:
    """One test with `body` under this suite's conftest, in a pytest of its own (no xdist workers)."""
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_inner=f"import tempfile\nfrom pathlib import Path\n\n\ndef test_inner():\n{body}\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH")))))
    # A temp directory of its own: under CI the inner run fails on anything new in its temp directory,
    # and this suite's other tests write to the suite's one meanwhile.
    temp = pytester.path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    return pytester.runpytest_subprocess(
        "-p", "no:xdist", "-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-q", "-s", *args, timeout=300
    )


def test_a_run_that_leaves_a_file_in_the_temp_directory_fails_and_names_it(pytester, monkeypatch):
    result = inner_run(pytester, monkeypatch, '    Path(tempfile.gettempdir(), "left-behind.txt").write_text("x")')
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*the suite left 1 entries in its temp folder: left-behind.txt*"])


def test_a_run_that_cleans_up_passes_and_its_temp_folder_is_gone(pytester, monkeypatch):
    body = (
        "    with tempfile.TemporaryDirectory() as scratch:\n"
        '        Path(scratch, "f").write_text("x")\n'
        '    print("TEMP", tempfile.gettempdir())'
    )
    result = inner_run(pytester, monkeypatch, body)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    (line,) = [line for line in result.outlines if line.startswith("TEMP ")]
    session_folder = Path(line.split(" ", 1)[1])
    assert session_folder.name.startswith("kw-tests-") and not session_folder.exists()


def _git_checkout(pytester: pytest.Pytester) -> Path:
    """A git checkout with one commit inside the inner run's folder, ignoring /runs/ as the project does: the
    inner run's root (--rootdir), apart from the files pytester itself writes beside it."""
    import subprocess

    path = pytester.mkdir("checkout")
    (path / ".gitignore").write_text("/runs/\n")
    for command in (["init", "-q"], ["add", ".gitignore"], ["-c", "user.name=u", "-c", "user.email=u@e.invalid",
                    "commit", "-q", "-m", "start"]):  # fmt: skip
        subprocess.run(["git", *command], cwd=path, check=True, capture_output=True)
    return path


def _rooted(pytester: pytest.Pytester, checkout: Path) -> tuple[str, str]:
    """The inner run rooted in `checkout`, still loading the conftest beside it (above the root)."""
    return f"--rootdir={checkout}", f"--confcutdir={pytester.path}"


def test_a_run_that_writes_a_gitignored_file_in_the_checkout_fails_and_names_it(pytester, monkeypatch):
    checkout = _git_checkout(pytester)
    body = (
        '    Path("checkout/runs/variants").mkdir(parents=True)\n'
        '    Path("checkout/runs/variants/v.py").write_text("x")'
    )
    result = inner_run(pytester, monkeypatch, body, *_rooted(pytester, checkout))
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*the suite wrote 1 file(s) in the checkout: runs/variants/v.py*"])


def test_a_run_that_writes_nothing_in_its_checkout_passes(pytester, monkeypatch):
    checkout = _git_checkout(pytester)
    (checkout / "runs").mkdir()
    (checkout / "runs" / "old.json").write_text("{}")  # there before the run: not the run's doing
    result = inner_run(pytester, monkeypatch, '    Path(tempfile.gettempdir(), "scratch").mkdir()\n'
                       '    Path(tempfile.gettempdir(), "scratch").rmdir()', *_rooted(pytester, checkout))  # fmt: skip
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    assert "in the checkout" not in result.stdout.str()


def test_a_gpu_test_waits_for_the_one_holding_the_gpu_lock(tmp_path):
    lock = tmp_path / "gpu-tests.lock"
    other = "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)"
    with gpu_test_lock(lock):
        assert subprocess.run([sys.executable, "-c", other, str(lock)], capture_output=True).returncode != 0
    assert subprocess.run([sys.executable, "-c", other, str(lock)], capture_output=True).returncode == 0
