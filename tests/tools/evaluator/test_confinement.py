"""Confinement holds for root and for a user who is not root: each attack fails in every mode that claims to stop it.

Each case judges a file that tries everything from inside its runner (tests/tools/evaluator/
confinement_attacks.py) in a fresh judge process, as root and as an unprivileged user created for the
test, in every confinement mode this machine offers. `none` (only with allow_unconfined) shows the
attacks are real: there they work.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.tools.evaluator import confinement_attacks as attacks
from tools.evaluator import sandbox

MODES = attacks.modes()
pytestmark = pytest.mark.xdist_group("confinement")


@pytest.fixture(scope="module")
def user():
    name = attacks.ensure_user()
    if name is None:
        pytest.skip("needs root to create an unprivileged user")
    works, why = attacks.user_can_run_python(name)
    if not works:
        pytest.skip(f"{name} cannot run this interpreter: {why}")
    return name


def _who(as_user: bool, user: str | None) -> str | None:
    if as_user:
        return user
    if os.geteuid() != 0:
        pytest.skip("runs as root")
    return None


@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
@pytest.mark.parametrize("mode", [m for m in MODES if m != "none"])
def test_a_confined_candidate_reads_no_secret_writes_nothing_signals_no_one_and_leaves_nothing(request, mode, as_user):
    user = request.getfixturevalue("user") if as_user else None
    outcome = attacks.judge("all", mode, _who(as_user, user))
    assert outcome.report, f"the attack did not report: {outcome.message[:400]}"
    assert outcome.record["confinement"]["mode"] == mode
    assert not outcome.record["confinement"]["unconfined"]
    assert outcome.report["secret"] is False, "read the API key from another process's environment"
    assert outcome.report["tcp"] is False and not outcome.received, "reached a TCP listener on 127.0.0.1"
    assert not any(outcome.changed.values()), f"wrote outside its folders: {outcome.changed}"
    assert not any(v for k, v in outcome.report.items() if k.startswith("write ")), outcome.report
    if mode == "namespaces" or sandbox.mechanisms().landlock_abi >= 6:
        assert outcome.report["signal others"] == 0 and outcome.report["renice others"] == 0, outcome.report
    assert outcome.survivors == 0, "a daemon it started outlived the evaluation"
    host_reads = {k: v for k, v in outcome.report.items() if k.startswith("read a host file")}
    assert host_reads or os.geteuid() != 0, "no host file was planted"
    assert not any(host_reads.values()), f"read a world-readable file outside the checkout: {host_reads}"


@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_unconfined_the_same_attacks_work_so_the_tests_can_fail(request, as_user):
    user = request.getfixturevalue("user") if as_user else None
    outcome = attacks.judge("all", "none", _who(as_user, user))
    assert outcome.record["confinement"]["unconfined"] is True
    assert outcome.report["secret"] is True and outcome.received == [b"exfiltrated"]
    assert outcome.changed["judge code"] and outcome.changed["incumbent"]
    assert outcome.changed["incumbent's compile cache"]
    if os.geteuid() == 0:
        assert outcome.report["read a host file under /opt"] and outcome.report["read a host file under /var/lib"]
    assert outcome.report["signal others"] > 0
    assert outcome.survivors == 0  # the keeper sweeps even here


@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
@pytest.mark.parametrize("mode", MODES)
def test_what_a_runner_leaves_in_its_cache_no_later_runner_of_another_file_reads(request, mode, as_user):
    user = request.getfixturevalue("user") if as_user else None
    who = _who(as_user, user)
    shared = Path(tempfile.mkdtemp(prefix="kw-confine-runners-"))
    try:
        earlier = attacks.judge("all", mode, who, runner_dir=shared)
        planted = earlier.report.get("planted")
        assert planted and Path(planted).exists(), f"the first runner could not write its own cache: {earlier.report}"
        later = attacks.judge("all", mode, who, runner_dir=shared, reads={"an earlier runner's cache": planted})
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    # Unconfined, the later file reads it: the attack is real. Confined, another file's cache is out of reach.
    assert later.report["read an earlier runner's cache"] is (mode == "none"), later.report


HOG_CASES = [
    ("namespaces", False),
    ("namespaces", True),
    ("landlock", False),
]


@pytest.mark.parametrize("kind", list(attacks.HOGS))
@pytest.mark.parametrize("mode, as_user", [c for c in HOG_CASES if c[0] in MODES], ids=lambda v: str(v))
def test_a_runner_over_its_limits_fails_with_the_reason(request, kind, mode, as_user):
    user = request.getfixturevalue("user") if as_user else None
    outcome = attacks.judge(kind, mode, _who(as_user, user), env=attacks.HOG_LIMITS)
    assert outcome.record["status"] == "failed" and outcome.record["failed_stage"] == "compile", outcome.message
    reasons = {
        "memory": ("over its memory limit",),
        "disk": ("over its write limit", "File too large"),
        "processes": ("over its process limit", "Resource temporarily unavailable"),
    }[kind]
    assert any(reason in outcome.message for reason in reasons), outcome.message


def test_without_any_confinement_the_judge_refuses_unless_allowed(monkeypatch):
    from tools.evaluator import evaluate
    from tools.evaluator.options import EvalOptions

    monkeypatch.setenv("KW_CONFINEMENT", "none")
    with pytest.raises(evaluate.Unconfined, match="--allow-unconfined"):
        evaluate.evaluate("rope", "torch", None, EvalOptions(shapes=["llama3.2-1b/decode1/q"], device="cpu"))
