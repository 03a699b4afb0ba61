"""Shared pytest set-up: GPU tests skip cleanly without a GPU and run one at a time; the suite keeps its files.

Temporary files. The session makes one folder in the temp directory, points TMPDIR (and Python's
`tempfile`) at it for itself and every process it starts, and removes it at the end, so a run
leaves nothing in /tmp. Before removing it, the session fails if anything is left there but what is
kept on purpose: pytest's own tmp_path folders, torch.compile's cache and the runners' compile caches
(tools/evaluator/confine.py keeps one per kernel file's content). A scratch folder, a copied cache, a library's
temporary source file: each is named, and the run fails. Entries that appeared directly in the real
temp directory meanwhile are listed too (they fail the run in CI, where nothing else writes there).

The checkout. The session also fails on any untracked or gitignored file of the git checkout it runs in that a
test created or changed (`agent eval --set` once left runs/variants/ there, which `git status` does not show):
git's list of those paths, with each file's size and mtime, is taken before and after. Python's, pytest's and
ruff's caches are left out, as is the CPU-seconds plugin's output (tests/pytest_cpu.py).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
import torch

TMP_KEY = pytest.StashKey[tuple[Path, Path, set[str], str | None]]()
LEFT_KEY = pytest.StashKey[tuple[Path, list[str], list[str]]]()
CHECKOUT_KEY = pytest.StashKey[tuple[Path, dict[str, tuple]]]()
WROTE_KEY = pytest.StashKey[list[str]]()
# Written by running Python, pytest and ruff themselves, or asked for by the one running the suite.
OWN_FILES = ("__pycache__", ".pytest_cache", ".ruff_cache", "pytest-cpu.jsonl")


def checkout_root(start: Path) -> Path | None:
    """The git checkout `start` is in; None outside one (or without git)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=start, capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def checkout_state(root: Path) -> dict[str, tuple]:
    """Every path git calls untracked or ignored (files inside an ignored folder one by one), with git's status
    and the file's size and mtime: two states differ where a file was written. Tracked files are left to
    `git status`, which shows a change to them anyway, so a person may edit the checkout while the suite runs."""
    listed = subprocess.run(
        ["git", "status", "--porcelain=v1", "-z", "--ignored=matching", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split("\0")
    state: dict[str, tuple] = {}
    for entry in filter(None, listed):
        status, name = entry[:2], entry[3:]
        if status not in ("??", "!!"):
            continue
        paths = [name]
        if name.endswith("/"):  # an ignored or untracked folder: its files
            paths = [
                str((Path(folder) / file).relative_to(root))
                for folder, _, files in os.walk(root / name)
                for file in files
            ] or [name]
        for path in paths:
            if any(part in OWN_FILES for part in Path(path).parts):
                continue
            try:
                stat = (root / path).stat()
                state[path] = (status, stat.st_size, stat.st_mtime_ns)
            except OSError:  # deleted: still a change
                state[path] = (status, None, None)
    return state


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: it inherited the controller's TMPDIR
        # Its share of the cores for torch's threads, and its children's (runners, model runs): two workers
        # each running two threads on two cores would spin against each other.
        workers = int(config.workerinput.get("workercount", 1))
        threads = max(1, (os.cpu_count() or 1) // workers)
        torch.set_num_threads(threads)
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))
        return
    real = Path(tempfile.gettempdir())
    before = set(os.listdir(real))
    previous = os.environ.get("TMPDIR")
    root = Path(tempfile.mkdtemp(prefix="kw-tests-", dir=real))
    # Runners of their own uid (as root) must pass through it to their scratch folders and caches.
    os.chmod(root, 0o711)
    os.environ["TMPDIR"] = str(root)
    tempfile.tempdir = None  # recomputed from TMPDIR on next use
    config.stash[TMP_KEY] = (real, root, before, previous)
    checkout = checkout_root(config.rootpath)
    if checkout is not None:
        config.stash[CHECKOUT_KEY] = (checkout, checkout_state(checkout))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):
        _group_shared_fixtures(items)
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a GPU (torch.cuda.is_available() is False)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


# Module- and session-scoped fixtures that take a minute or more to build: loop runs, interpreter children,
# model runs. Under pytest-xdist (`--dist loadgroup`), the tests that use one run on one worker, so it is
# built once, and go first, so the long groups do not end the run on one worker while the other idles.
SHARED_FIXTURES = (
    "runs",
    "finished_run",
    "outcomes",
    "infer_records",
    "reference_ids",
    "rope_reference_ids",
    "ray_cluster",  # a local Ray cluster (tests/agent/test_workers.py)
)


def _group_shared_fixtures(items: list[pytest.Item]) -> None:
    grouped = []
    for item in items:
        shared = [name for name in SHARED_FIXTURES if name in getattr(item, "fixturenames", ())]
        if shared:
            item.add_marker(pytest.mark.xdist_group(shared[0]))
            grouped.append(item)
    ids = {id(item) for item in grouped}
    items[:] = grouped + [item for item in items if id(item) not in ids]


@pytest.fixture(autouse=True)
def _one_gpu_test_at_a_time(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """GPU tests time kernels and check that the GPU is idle after each answer: another xdist worker's kernels on
    the same GPU would change their outcome, so they hold one lock, shared by the workers' common temp folder."""
    if "gpu" not in request.keywords or not torch.cuda.is_available():
        yield
        return
    with gpu_test_lock(tmp_path_factory.getbasetemp().parent / "gpu-tests.lock"):
        yield


@contextmanager
def gpu_test_lock(path: Path):
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        yield


def _close_library_temp_dirs() -> None:
    """Remove the temp folders libraries make at import and remove only at interpreter exit (after this check)."""
    import sys

    app_test = sys.modules.get("streamlit.testing.v1.app_test")
    if app_test is not None:  # its module-level TMP_DIR holds the scripts AppTest writes
        app_test.TMP_DIR.cleanup()


def _left_in(root: Path) -> list[str]:
    """What the session left in its temp folder, other than pytest's tmp_path folders and the compile caches."""
    from tools.evaluator import confine

    _close_library_temp_dirs()
    left = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(("pytest-of-", "torchinductor_")):  # tmp_path folders; torch.compile's cache
            continue
        if entry.name == f"kernel-workbench-{os.geteuid()}":
            # A judge killed on purpose (the SIGKILL tests) cannot remove its runners' scratch folders; the
            # next judge sweeps them (confine._sweep). What the sweep leaves is a leak.
            confine._sweep(entry)
            for inner in sorted(entry.iterdir()):
                if inner.name != "caches":
                    left.append(f"{entry.name}/{inner.name}")
            caches = sorted((entry / "caches").iterdir()) if (entry / "caches").is_dir() else []
            left += [f"{entry.name}/caches/{c.name}" for c in caches if confine.COPY_MARK in c.name]
            continue
        left.append(entry.name)
    return left


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if TMP_KEY not in session.config.stash:  # a pytest-xdist worker: the controller checks once the workers end
        _close_library_temp_dirs()
        return
    real, root, before, previous = session.config.stash[TMP_KEY]
    left = _left_in(root) if root.is_dir() else []
    shutil.rmtree(root, ignore_errors=True)
    if previous is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = previous
    tempfile.tempdir = None
    appeared = sorted(set(os.listdir(real)) - before - {root.name})
    session.config.stash[LEFT_KEY] = (real, left, appeared)
    wrote = []
    if CHECKOUT_KEY in session.config.stash:
        checkout, state = session.config.stash[CHECKOUT_KEY]
        after = checkout_state(checkout)
        wrote = sorted(path for path in state.keys() | after.keys() if state.get(path) != after.get(path))
    session.config.stash[WROTE_KEY] = wrote
    if (left or wrote or (appeared and os.environ.get("CI"))) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    wrote = config.stash.get(WROTE_KEY, [])
    if wrote:
        terminalreporter.write_line(
            f"FAILED: the suite wrote {len(wrote)} file(s) in the checkout: {', '.join(wrote[:20])}", red=True
        )
    if LEFT_KEY not in config.stash:
        return
    real, left, appeared = config.stash[LEFT_KEY]
    if left:
        terminalreporter.write_line(
            f"FAILED: the suite left {len(left)} entries in its temp folder: {', '.join(left[:20])}", red=True
        )
    if appeared:
        verdict = "FAILED (CI)" if os.environ.get("CI") else "note (other processes may have made them)"
        terminalreporter.write_line(
            f"{verdict}: new in {real} during the run: {', '.join(appeared[:20])}",
            red=bool(os.environ.get("CI")),
        )
