"""Does ncu reach a process confined as the judge confines runners? (GPU host, as root.)

Ways of running one small CUDA program under ncu, each given 60 s:
- plain: ncu starts the program;
- target-netns: the program leaves the network first (unshare), as runners did under the profile stage;
- netns-wrapper: ncu and the program share a namespace of their own with loopback up (tools/evaluator/netns.py);
- netns-wrapper+uid: the same, the program then drops to an unprivileged uid as runners do;
- +runner-env: and with a runner's environment (its own HOME and TMPDIR, owned by that uid);
- +vmm: and the kernel reads a buffer of this process's, mapped as runners map the judge's arenas;
- +stop-cont: and the process group is stopped and continued while the program waits, as between requests;
- profile-stage: the whole profile stage (`evaluate(..., profile=True)`) of the torch candidate, 120 s.

    python benchmarks/probes/ncu_probe.py --json ncu-probe.json [--ways plain,netns-wrapper]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.evaluator.profile import ncu_command
from tools.paths import PROJECT_ROOT

UID = 300777
TARGET = """
import ctypes, json, os, sys, time
mode = sys.argv[1]
if mode == "netns":
    assert ctypes.CDLL(None, use_errno=True).unshare(0x40000000) == 0
if mode != "plain" and mode != "netns":
    os.setgroups([]); os.setresgid(UID, UID, UID); os.setresuid(UID, UID, UID)
import torch
x = torch.ones(1 << 20, device="cuda")
if mode == "vmm":
    from tools.evaluator.buffers import map_shared
    x, keep = map_shared(int(sys.argv[2]), json.loads(sys.argv[3]), torch.device("cuda"))
    x = x.view(torch.float32)
if mode == "stop-cont":
    print("waiting", flush=True)
    time.sleep(4)
torch.cuda.synchronize()
torch.cuda.profiler.start()
y = x * 2
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("target done", os.getuid())
""".replace("UID", str(UID))
STAGE = """
from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions
options = EvalOptions(shapes=["llama3.2-1b/decode1"], benchmark=False, profile=True, baselines=())
record = evaluate("rms_norm", "torch", None, options)
print([(s.name, s.status, round(s.seconds or 0, 1), s.message[:200]) for s in record.stages])
print("profiled rows", len(record.profile))
"""


def _run(command: list[str], env: dict, timeout: float, fds=(), stop_cont: bool = False) -> tuple:
    start = time.monotonic()
    proc = subprocess.Popen(
        command, env=env, pass_fds=fds, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    if stop_cont:
        time.sleep(8)  # ncu and the target started; the target sleeps before its profiled range
        for _ in range(3):
            os.killpg(proc.pid, signal.SIGSTOP)
            time.sleep(0.2)
            os.killpg(proc.pid, signal.SIGCONT)
            time.sleep(0.2)
    try:
        out, _ = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        rc = "timeout"
    return rc, round(time.monotonic() - start, 1), (out or b"").decode(errors="replace")[-600:]


def attempt(way: str, folder: Path) -> dict:
    log = folder / f"{way}.csv"
    script = folder / "target.py"
    script.write_text(TARGET)
    script.chmod(0o644)
    folder.chmod(0o755)
    netns = [sys.executable, "-m", "tools.evaluator.netns", "--"]
    profiler = [*ncu_command(shutil.which("ncu") or "ncu"), "--log-file", str(log)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")]))
    if way == "profile-stage":
        rc, seconds, tail = _run([sys.executable, "-c", STAGE], env, 120)
        return {"way": way, "rc": rc, "seconds": seconds, "kernel_rows": None, "tail": tail}
    mode = {"plain": "plain", "target-netns": "netns", "netns-wrapper": "plain"}.get(way, "uid")
    wrapper = [] if way in ("plain", "target-netns") else netns
    fds, extra, arena = (), [], None
    if way.endswith("+vmm"):
        import torch

        from tools.evaluator.buffers import Arena

        arena = Arena(4 << 20, torch.device("cuda"), runner_writable=False)
        fd = arena.export_fd()
        fds, extra, mode = (fd,), [str(fd), json.dumps(arena.describe())], "vmm"
    if way.endswith("+stop-cont"):
        mode = "stop-cont"
    if way.endswith("+runner-env") or way.endswith("+vmm") or way.endswith("+stop-cont"):
        home = folder / "home"
        home.mkdir(exist_ok=True)
        os.chown(home, UID, UID)
        home.chmod(0o700)
        env.update(HOME=str(home), TMPDIR=str(home), USER="kw-runner", LOGNAME="kw-runner")
    rc, seconds, tail = _run(
        [*wrapper, *profiler, sys.executable, str(script), mode, *extra],
        env,
        60,
        fds,
        stop_cont=mode == "stop-cont",
    )
    for fd in fds:
        os.close(fd)
    if arena is not None:
        arena.close()
    text = log.read_text(errors="replace") if log.exists() else ""
    rows = sum("elementwise" in line for line in text.splitlines())
    return {"way": way, "rc": rc, "seconds": seconds, "kernel_rows": rows, "tail": tail}


WAYS = [
    "plain",
    "target-netns",
    "netns-wrapper",
    "netns-wrapper+uid",
    "netns-wrapper+uid+runner-env",
    "netns-wrapper+uid+vmm",
    "netns-wrapper+uid+stop-cont",
    "profile-stage",
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated, of: " + ", ".join(WAYS))
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o755)  # the target, as another uid, reads its script below it
        for way in args.ways.split(","):
            folder = Path(tmp) / way.replace("+", "-")
            folder.mkdir()
            results.append(attempt(way, folder))
            r = results[-1]
            print(f"{r['way']:30} rc={r['rc']!s:8} {r['seconds']:6.1f} s  kernel rows {r['kernel_rows']}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
