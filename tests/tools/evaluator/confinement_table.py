"""What a candidate can do from inside a runner, per confinement mode and user, and what a runner costs to start.

    python -m tests.tools.evaluator.confinement_table [--json PATH] [--starts 5]

Runs the attacks of tests/tools/evaluator/confinement_attacks.py (the ones tests/tools/evaluator/
test_confinement.py asserts on) in every mode this machine offers, as root and as an unprivileged user
(created when run as root), and times runners starting (to their hello) in each mode: forked from the
zygote, and exec'd. Prints the markdown table docs/judge.md shows. It lives with the tests because it runs
their attacks, and nothing outside tests/ imports tests/.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.tools.evaluator import confinement_attacks as attacks

ROWS = (
    ("read the judge's API key from another process", lambda o: o.report.get("secret")),
    ("reach a TCP listener on 127.0.0.1", lambda o: bool(o.received)),
    ("write the checkout's judge code", lambda o: o.changed.get("judge code")),
    ("write the checkout's .git", lambda o: o.changed.get(".git")),
    ("write the incumbent kernel file", lambda o: o.changed.get("incumbent")),
    ("write the interpreter's site-packages", lambda o: o.changed.get("site-packages")),
    ("write the incumbent's compile cache", lambda o: o.changed.get("incumbent's compile cache")),
    (
        "read a world-readable file under /opt or /var/lib",
        lambda o: any(v for k, v in o.report.items() if k.startswith("read a host file")),
    ),
    ("read what another file's runner left in its cache", lambda o: o.report.get("read an earlier runner's cache")),
    ("signal or renice processes outside its own", lambda o: (o.report.get("signal others") or 0) > 0),
    ("leave a forking daemon running", lambda o: o.survivors > 0),
)


def start_seconds(mode: str, starts: int, zygote: bool) -> float:
    """Median seconds from asking for a runner to its hello, in `mode` (a new process per mode)."""
    code = f"""
import json, os, statistics, time
from tools.evaluator.process import RunnerProcess
from tools.evaluator.zygote import Zygotes
zygotes = Zygotes()
seconds = []
for i in range({starts} + 1):
    asked = time.monotonic()
    runner = RunnerProcess("reference", {{"kind": "builtin", "names": ["torch"], "op": "rms_norm", "device": "cpu"}},
                           device="cpu", target="auto", cache_key=f"start-{{i}}", zygotes=zygotes)
    assert runner.wait_hello(time.monotonic() + 300).ok
    seconds.append(time.monotonic() - asked)
    runner.close()
print(json.dumps(seconds[1:]))  # the first pays for the zygote
"""
    env = dict(os.environ, KW_CONFINEMENT=mode, KW_RUNNER_ZYGOTE="1" if zygote else "0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-600:])
    return statistics.median(json.loads(out.stdout.strip().splitlines()[-1]))


def sandbox_start_ms(starts: int = 25) -> float | None:
    """Median milliseconds to start `/bin/true` in the runners' sandbox and see it exit (None without one)."""
    from tools.evaluator import sandbox

    setup = sandbox.setup()
    if setup.mode != "namespaces":
        return None
    command = [*setup.wrap(), "/bin/true"]
    seconds = []
    for _ in range(starts):
        started = time.perf_counter()
        subprocess.run(command, check=True)
        seconds.append(time.perf_counter() - started)
    return 1000 * statistics.median(seconds)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.tools.evaluator.confinement_table", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args(argv)
    user = attacks.ensure_user()
    columns = []
    for mode in attacks.modes():
        for who in (None, user):
            if who is None and os.geteuid() != 0:
                continue
            if who is not None and not attacks.user_can_run_python(who)[0]:
                continue
            shared = Path(tempfile.mkdtemp(prefix="kw-confine-runners-"))
            try:  # a first file leaves something in its cache; the second, another file, tries to read it
                earlier = attacks.judge("all", mode, who, runner_dir=shared)
                left = earlier.report.get("planted")
                reads = {"an earlier runner's cache": left} if left else {}
                outcome = attacks.judge("all", mode, who, runner_dir=shared, reads=reads)
            finally:
                shutil.rmtree(shared, ignore_errors=True)
            columns.append((mode, "root" if who is None else "user", outcome))
    costs = {
        mode: (start_seconds(mode, args.starts, True), start_seconds(mode, args.starts, False))
        for mode in attacks.modes()
    }
    header = "| a candidate can | " + " | ".join(f"{mode}, {who}" for mode, who, _ in columns) + " |"
    lines = [header, "|---|" + "---|" * len(columns)]
    for label, test in ROWS:
        cells = ["**yes**" if test(o) else "no" for _, _, o in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(
        "| runner start as root, forked / exec'd (s) | "
        + " | ".join(f"{costs[m][0]:.2f} / {costs[m][1]:.2f}" for m, _, _ in columns)
        + " |"
    )
    print("\n".join(lines))
    sandbox_ms = sandbox_start_ms()
    if sandbox_ms is not None:
        print(f"\nthe sandbox alone (bwrap ... -- /bin/true), median of 25: {sandbox_ms:.1f} ms")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "columns": [
                        {"mode": m, "user": w, "report": o.report, "changed": o.changed, "survivors": o.survivors}
                        for m, w, o in columns
                    ],
                    "start_seconds": costs,
                    "sandbox_start_ms": sandbox_ms,
                    "measured": time.strftime("%Y-%m-%d"),
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
