"""The run folder (docs/design.md, "Run folder"): everything a run produces, written as it happens.

    run.json            config, environment, status, best result
    events.jsonl        one line per event, appended and flushed each time
    iterations/NNNN/    prompt.md, response.md, candidate.py, diff.patch, eval.json, kernel sources,
                        profile.txt, e2e.json (with --e2e), reflection.md
    e2e_reference.json  the torch backend's greedy tokens for --e2e, computed once per run
    checkpoints.sqlite  LangGraph state

The UI and `agent export` need only this folder. Its files record paths that survive copying it
to another folder or clone (tools/paths.py): files of the run (`workspace.worktree`, each eval.json's
`candidate`, the checkpointed state's paths) relative to the run folder, the kernel file the run
started from (`kernel_file`, `config.start_source`) relative to the repository root, and a file outside
the repository absolute.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
from pathlib import Path

from tools.paths import PROJECT_ROOT, record_path, sha256_file
from tools.workspace import Workspace

RUNS_DIR = PROJECT_ROOT / "runs"


def new_run_id(op: str, backend: str) -> str:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{op}-{backend}-{secrets.token_hex(2)}"


def candidate_suffix(index: int) -> str:
    """File suffix of a round's candidate: candidate.py, eval.json for the first; candidate-2.py, ... after."""
    return "" if index == 0 else f"-{index + 1}"


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class RunFolder:
    def __init__(self, path: Path):
        self.path = Path(path)

    @classmethod
    def create(cls, root: Path, run_id: str) -> RunFolder:
        path = Path(root) / run_id
        try:
            path.mkdir(parents=True, exist_ok=False)
        except FileExistsError:
            raise FileExistsError(f"run folder {path} already exists; pick another run id") from None
        except OSError as err:
            raise OSError(f"cannot create the run folder {path}: {err}") from err
        (path / "iterations").mkdir()
        return cls(path)

    @classmethod
    def open(cls, root: Path, run_id: str) -> RunFolder:
        path = Path(root) / run_id
        if not (path / "run.json").exists():
            known = ", ".join(sorted(p.name for p in Path(root).glob("*") if (p / "run.json").exists())[-5:])
            raise FileNotFoundError(f"no run {run_id!r} under {root}" + (f"; recent runs: {known}" if known else ""))
        return cls(path)

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def checkpoints(self) -> Path:
        return self.path / "checkpoints.sqlite"

    def relative(self, path: str | Path) -> str:
        """How this run's files record `path`: relative to the run folder when inside it, else absolute."""
        return record_path(path, self.path)

    def portable(self, text: str) -> str:
        """`text` (a record's messages and notes) with this machine's run folder and repository root left out,
        so that a message names the run's files as its path fields do (`iterations/0001/candidate.py`)."""
        for base in dict.fromkeys((str(self.path.resolve()), str(self.path.absolute()), str(PROJECT_ROOT))):
            text = text.replace(base + os.sep, "")
        return text

    def locate(self, recorded: str | Path) -> Path:
        """A path this run recorded, on this machine.

        Relative: inside the run folder. Absolute, from a run written before paths were relative (its
        checkpoint still holds them): a path through a folder named after the run id is taken to be this
        folder's file, where that exists, so a run folder copied or moved elsewhere still finds its own files.
        """
        path = Path(recorded)
        if not path.is_absolute():
            return self.path / path
        parts = path.parts
        if self.run_id in parts:
            last = len(parts) - 1 - parts[::-1].index(self.run_id)
            here = self.path.joinpath(*parts[last + 1 :])
            if here.exists():
                return here
        return path

    def workspace(self, run: dict | None = None) -> Workspace:
        """The run's git workspace, its worktree located on this machine."""
        data = (run if run is not None else self.read_json("run.json"))["workspace"]
        return Workspace.from_dict({**data, "worktree": str(self.locate(data["worktree"]))})

    def iteration_dir(self, iteration: int) -> Path:
        folder = self.path / "iterations" / f"{iteration:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def write(self, relative: str | Path, text: str) -> Path:
        """Write a file atomically (temp file + rename), so a crash never leaves half a file."""
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.tmp")
        temp.write_text(text)
        os.replace(temp, target)
        return target

    def read_json(self, relative: str) -> dict:
        return json.loads((self.path / relative).read_text())

    def update_run(self, **fields) -> dict:
        current = self.read_json("run.json") if (self.path / "run.json").exists() else {}
        current.update(fields)
        current["updated"] = now()
        self.write("run.json", json.dumps(current, indent=1) + "\n")
        return current

    def event(self, kind: str, **payload) -> None:
        line = self.portable(json.dumps({"time": now(), "event": kind, **payload}))
        with open(self.path / "events.jsonl", "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def best_candidate(self, run: dict | None = None) -> Path | None:
        """The candidate file of the run's best accepted version, as the judge evaluated it; None if none was.

        From the run folder alone (its git worktree may be on another machine): run.json names the
        iteration, that iteration's decide event the candidate, and its eval.json the file's hash.
        """
        run = run if run is not None else self.read_json("run.json")
        best = run.get("best") or {}
        iteration = best.get("iteration")
        if not iteration or not best.get("commit"):
            return None
        decided = [e for e in self.events() if e.get("event") == "decide" and e.get("iteration") == iteration]
        index = decided[-1].get("accepted") if decided else None
        if index is None:
            raise RuntimeError(
                f"run {self.run_id}: run.json says iteration {iteration} was accepted, but events.jsonl has no "
                "decision accepting a candidate of it; the run folder is incomplete"
            )
        suffix = candidate_suffix(index)
        folder = self.path / "iterations" / f"{iteration:04d}"
        candidate, record = folder / f"candidate{suffix}.py", folder / f"eval{suffix}.json"
        try:
            evaluated = json.loads(record.read_text())["candidate_sha256"]
            actual = sha256_file(candidate)
        except (OSError, KeyError, json.JSONDecodeError) as err:
            raise RuntimeError(f"run {self.run_id}: cannot read the best version's files in {folder}: {err}") from err
        if actual != evaluated:
            raise RuntimeError(
                f"{candidate} is not the file the judge evaluated (its sha256 differs from {record.name}'s); "
                "the run folder was edited after the run"
            )
        return candidate

    def events(self) -> list[dict]:
        path = self.path / "events.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def list_runs(root: Path = RUNS_DIR) -> list[dict]:
    runs = []
    for path in sorted(Path(root).glob("*/run.json")):
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, json.JSONDecodeError):
            continue
    return runs
