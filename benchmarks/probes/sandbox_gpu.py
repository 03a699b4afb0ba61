"""Which layer of a runner's confinement the GPU's driver stands, layer by layer (GPU, root).

    python benchmarks/probes/sandbox_gpu.py

Starts `torch.cuda.init()` and one kernel in a child under each combination of bubblewrap's sandbox
(tools/evaluator/sandbox.py), a uid of its own, the rlimits, Landlock and the seccomp filter
(tools/evaluator/confine.py), and prints which worked and the error of those that did not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, os, sys
layers = json.loads(sys.argv[1])
from tools.evaluator import confine, sandbox
scratch = sys.argv[2]
if "uid" in layers:
    os.setgroups([]); os.setresgid(300099, 300099, 300099); os.setresuid(300099, 300099, 300099)
if "limits" in layers:
    confine._limit(sandbox.limits(), {})
if "landlock" in layers:
    setup = sandbox.setup()
    print("landlock", confine._landlock(setup.runner_policy(), [scratch]))
for part in ("fs", "net", "scope"):  # one Landlock feature at a time, the others left open
    if "only-" + part in layers:
        from py_landlock import AccessFs, Landlock
        everything = AccessFs(0)
        for flag in AccessFs:
            everything |= flag
        ruleset = Landlock(strict=False)
        if part == "fs":
            policy = sandbox.setup().runner_policy()
            folders = [p for p in policy["read"] if os.path.isdir(p)]
            ruleset.add_path_rule(*folders, access=AccessFs.READ_FILE | AccessFs.READ_DIR | AccessFs.EXECUTE)
            ruleset.add_path_rule(scratch, "/dev/shm", access=everything)
            ruleset.add_path_rule("/dev", "/proc", access=everything & ~AccessFs.EXECUTE)
        else:
            ruleset.add_path_rule("/", access=everything)
        if part != "net":
            ruleset.allow_all_network()
        if part != "scope":
            ruleset.allow_all_scope()
        ruleset.apply()
if "seccomp" in layers:
    print("seccomp", confine._seccomp(allow_inet=False))
import torch
torch.cuda.init()
print("ok", torch.cuda.device_count(), float(torch.ones(4, device="cuda").sum()))
"""

VARIANTS = (
    ("plain", False, []),
    ("landlock", False, ["landlock"]),
    ("landlock files only", False, ["only-fs"]),
    ("landlock TCP only", False, ["only-net"]),
    ("landlock scopes only", False, ["only-scope"]),
    ("seccomp", False, ["seccomp"]),
    ("bwrap", True, []),
    ("bwrap+uid", True, ["uid"]),
    ("bwrap+uid+limits", True, ["uid", "limits"]),
    ("bwrap+uid+landlock", True, ["uid", "landlock"]),
    ("bwrap+uid+seccomp", True, ["uid", "seccomp"]),
)


def main() -> int:
    from tools.evaluator import confine, sandbox

    scratch = Path(tempfile.mkdtemp(dir=confine.runner_root()))
    os.chmod(scratch, 0o777)
    results = {}
    for name, wrapped, layers in VARIANTS:
        prefix = sandbox.setup().wrap() if wrapped else []
        if wrapped and not prefix:
            results[name] = "no sandbox here"
            continue
        run = subprocess.run(
            [*prefix, sys.executable, "-c", CHILD, json.dumps(layers), str(scratch)],
            capture_output=True,
            text=True,
            cwd=str(scratch),
            timeout=120,
        )
        tail = (run.stdout + run.stderr).strip().splitlines()
        results[name] = tail[-1][:300] if tail else f"exit {run.returncode}"
        print(f"{name:24} {results[name]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
