"""Shipped kernels judged with confinement on and off, as root and as a user, and each runner's start (GPU, root).

    PYTHONPATH=$PWD python benchmarks/probes/confinement_gpu.py --out DIR \
        [--kernels rms_norm:tilelang rms_norm:ninetoothed] [--shapes llama3-8b] [--repeats 2] [--budget 500]

First times runners starting in each cell (`runner_start.py --device DEVICE`, 4 runners). Then, for each kernel,
runs `agent eval` of its shipped file once per cell (who judges: root or an unprivileged user created for the
probe; confinement: `namespaces`, or `none` with `--allow-unconfined`), the cells interleaved and the whole round
repeated, so that a cell's difference from another can be read against the spread of its own repeats. Writes
every record to DIR, and `summary.json` and `summary.md` (per kernel and cell: the geometric mean over shapes of
the graph-scope µs and of the fraction of copy, per repeat). Starts no evaluation after `--budget` seconds.

The checkout and the interpreter must be readable by others: copy the checkout somewhere they are if need be.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pwd
import subprocess
import sys
import time
from pathlib import Path

USER = "kwprobe"
CELLS = (("user", "namespaces"), ("user", "none"), ("root", "namespaces"), ("root", "none"))
ROOT = Path(__file__).resolve().parents[2]


def ensure_user() -> None:
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", USER], check=True)


def command(who: str, home: Path, mode: str, argv: list[str]) -> list[str]:
    """argv run as `who` with a clean environment: no key, its own home, the wanted confinement."""
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT)),
        "PYTHONUNBUFFERED": "1",
        "KW_CONFINEMENT": mode,
    }
    setting = ["env", "-i", *[f"{key}={value}" for key, value in env.items()]]
    if who == "user":
        return ["runuser", "-u", USER, "--", *setting, *argv]
    return [*setting, *argv]


def home_of(out: Path, who: str) -> Path:
    return out / f"home-{who}"


def make_homes(out: Path) -> None:
    """Each judge's home (caches, runs folder, records), the user's owned by the user."""
    for who in ("user", "root"):
        home_of(out, who).mkdir(parents=True, exist_ok=True)
    subprocess.run(["chown", USER, str(home_of(out, "user"))], check=True)


def user_can_run(out: Path) -> str | None:
    """Why the user cannot run the project here, or None."""
    argv = [sys.executable, "-c", "import agent, torch"]
    done = subprocess.run(command("user", home_of(out, "user"), "none", argv), cwd=ROOT, capture_output=True, text=True)
    return None if done.returncode == 0 else done.stderr.strip()[-300:] or f"exit {done.returncode}"


def evaluate(out: Path, who: str, mode: str, kernel: str, args: argparse.Namespace, repeat: int) -> dict:
    op, backend = kernel.split(":")
    home = home_of(out, who)
    record = home / f"{op}-{backend}-{who}-{mode}-{repeat}.json"
    argv = [sys.executable, "-m", "agent", "eval", op, "--backend", backend, "--baselines", "eager"]
    argv += ["--device", args.device]
    argv += ["--json", str(record), "--runs-dir", str(home / "runs")]
    if args.shapes:
        argv += ["--shapes", *args.shapes]
    if mode == "none":
        argv.append("--allow-unconfined")
    started = time.monotonic()
    done = subprocess.run(command(who, home, mode, argv), cwd=ROOT, capture_output=True, text=True, timeout=900)
    wall = time.monotonic() - started
    result = {"op": op, "backend": backend, "who": who, "mode": mode, "repeat": repeat, "wall_s": round(wall, 1)}
    if done.returncode != 0 or not record.exists():
        result["error"] = (done.stdout + done.stderr)[-1500:]
        return result
    text = record.read_text()
    data = json.loads(text)
    (out / record.name).write_text(text)
    rows = data.get("benchmark") or []
    scope = "graph" if any(row.get("graph") for row in rows) else "eager"  # a CPU has no graph scope
    rows = [row for row in rows if row.get(scope) and row[scope].get("candidate")]
    graph = [row[scope]["candidate"]["median_us"] for row in rows]
    fractions = [row[scope]["fraction_of_copy"] for row in rows if row[scope].get("fraction_of_copy")]
    result.update(
        status=data["status"],
        confinement=data.get("confinement"),
        scope=scope,
        shapes=len(graph),
        graph_us_geomean=geomean(graph),
        fraction_of_copy_geomean=geomean(fractions),
        benchmark_phases=next((s["phases"] for s in data["stages"] if s["name"] == "benchmark"), None),
        per_shape={row["shape"]: row[scope]["candidate"]["median_us"] for row in rows},
    )
    return result


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def runner_starts(out: Path, who: str, mode: str, device: str) -> dict:
    argv = [sys.executable, str(ROOT / "benchmarks/probes/runner_start.py"), "--device", device, "--runners", "4"]
    done = subprocess.run(
        command(who, home_of(out, who), mode, argv), cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    return {"who": who, "mode": mode, "rc": done.returncode, "output": (done.stdout + done.stderr)[-1200:]}


def summary_lines(results: list[dict]) -> list[str]:
    lines = [
        "| kernel | judged as | confinement | µs, geomean per repeat (graph; eager on a CPU) "
        "| fraction of copy | vs user+none |",
        "|---|---|---|---|---|---|",
    ]
    kernels = sorted({(r["op"], r["backend"]) for r in results})
    for op, backend in kernels:
        mine = [r for r in results if (r["op"], r["backend"]) == (op, backend) and r.get("graph_us_geomean")]
        base = [r["graph_us_geomean"] for r in mine if (r["who"], r["mode"]) == ("user", "none")]
        for who, mode in CELLS:
            cell = [r for r in mine if (r["who"], r["mode"]) == (who, mode)]
            if not cell:
                continue
            us = [r["graph_us_geomean"] for r in cell]
            fractions = [r["fraction_of_copy_geomean"] or 0 for r in cell]
            ratio = f"{geomean(us) / geomean(base):.3f}" if base else "-"
            lines.append(
                f"| {op}[{backend}] | {who} | {mode} | {' / '.join(f'{u:.3f}' for u in us)} "
                f"| {' / '.join(f'{f:.3f}' for f in fractions)} | {ratio} |"
            )
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="confinement_gpu.py", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--kernels", nargs="+", default=["rms_norm:tilelang", "rms_norm:ninetoothed"])
    parser.add_argument("--shapes", nargs="*", default=["llama3-8b"])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--cells", nargs="+", default=[f"{who}:{mode}" for who, mode in CELLS], help="WHO:MODE")
    parser.add_argument("--no-starts", action="store_true", help="skip timing runners' starts")
    parser.add_argument("--budget", type=float, default=500.0, help="seconds after which no evaluation starts")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        raise SystemExit("run this as root: it creates the unprivileged user it judges as")
    ensure_user()
    args.out.mkdir(parents=True, exist_ok=True)
    os.chmod(args.out, 0o755)
    make_homes(args.out)
    deadline = time.monotonic() + args.budget
    results: list[dict] = []
    starts: list[dict] = []

    def save() -> None:
        (args.out / "summary.json").write_text(json.dumps({"evaluations": results, "starts": starts}, indent=1))
        text = (
            "\n".join(summary_lines(results))
            + "\n\n"
            + "\n".join(f"{s['who']} {s['mode']}:\n{s['output']}" for s in starts)
        )
        (args.out / "summary.md").write_text(text)

    cells = tuple(tuple(cell.split(":")) for cell in args.cells)
    unable = user_can_run(args.out)
    if unable:
        print(f"{USER} cannot run the project here, so only root judges: {unable}", flush=True)
        cells = tuple(cell for cell in cells if cell[0] == "root")
    for who, mode in () if args.no_starts else cells:
        starts.append(runner_starts(args.out, who, mode, args.device))
        print(starts[-1]["who"], starts[-1]["mode"], starts[-1]["output"], flush=True)
        save()
    for repeat in range(args.repeats):
        for kernel in args.kernels:
            for who, mode in cells:
                if time.monotonic() > deadline:
                    break
                results.append(evaluate(args.out, who, mode, kernel, args, repeat))
                shown = {k: v for k, v in results[-1].items() if k not in ("per_shape", "benchmark_phases")}
                print(json.dumps(shown), flush=True)
                save()
    print("\n".join(summary_lines(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
