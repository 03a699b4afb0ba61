"""Does ncu reach a process confined as the judge confines runners? (GPU host, as root.)

Four ways of running one small CUDA program under ncu, each given 60 s:
- plain: ncu starts the program;
- target-netns: the program leaves the network first (unshare), as runners did under the profile stage;
- netns-wrapper: ncu and the program share a namespace of their own with loopback up (tools/evaluator/netns.py);
- netns-wrapper+uid: the same, the program then drops to an unprivileged uid as runners do.

    python scripts/ncu_probe.py --json ncu-probe.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.evaluator.profile import ncu_command

TARGET = """
import ctypes, os, sys
mode = sys.argv[1]
if mode == "netns":
    assert ctypes.CDLL(None, use_errno=True).unshare(0x40000000) == 0
if mode == "uid":
    os.setgroups([]); os.setresgid(300777, 300777, 300777); os.setresuid(300777, 300777, 300777)
import torch
x = torch.ones(1 << 20, device="cuda")
torch.cuda.synchronize()
torch.cuda.profiler.start()
y = x * 2
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("target done", os.getuid())
"""


def attempt(name: str, wrapper: list[str], mode: str, folder: Path) -> dict:
    log = folder / f"{name}.csv"
    script = folder / "target.py"
    script.write_text(TARGET)
    script.chmod(0o644)
    folder.chmod(0o755)
    command = [
        *wrapper,
        *ncu_command(shutil.which("ncu") or "ncu"),
        "--log-file",
        str(log),
        sys.executable,
        str(script),
        mode,
    ]
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        rc, tail = done.returncode, (done.stdout + done.stderr)[-400:]
    except subprocess.TimeoutExpired as err:
        rc, tail = (
            "timeout",
            ((err.stdout or b"").decode(errors="replace") + (err.stderr or b"").decode(errors="replace"))[-400:],
        )
    text = log.read_text(errors="replace") if log.exists() else ""
    return {
        "way": name,
        "rc": rc,
        "seconds": round(time.monotonic() - start, 1),
        "kernel_rows": sum("elementwise" in line for line in text.splitlines()),
        "tail": tail,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    netns = [sys.executable, "-m", "tools.evaluator.netns", "--"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        results = [
            attempt("plain", [], "plain", folder),
            attempt("target-netns", [], "netns", folder),
            attempt("netns-wrapper", netns, "plain", folder),
            attempt("netns-wrapper+uid", netns, "uid", folder),
        ]
    for r in results:
        print(f"{r['way']:20} rc={r['rc']!s:8} {r['seconds']:6.1f} s  kernel rows {r['kernel_rows']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
