"""The run folder (docs/run_folder.md): everything a run produces, written as it happens.

    run.json            config, environment, status, best result
    events.jsonl        one line per event, appended and flushed each time
    iterations/NNNN/    prompt.md, response.md, candidate.py, diff.patch, eval.json, generated.json,
                        profile.txt, e2e.json (with --e2e), reflection.md, reflection-prompt.md,
                        reflection-response.md
    sources/            each distinct generated kernel source once, named by its hash; an iteration's
                        generated.json lists which of them its evaluation compiled, under which key
    e2e_reference.json  the torch backend's greedy tokens for --e2e, computed once per run
    checkpoints.sqlite  LangGraph state
    run.lock            flocked by the one process running the run (RunFolder.hold)

The UI and `agent export` need only this folder. Its files record paths that survive copying it
to another folder or clone (tools/paths.py): files of the run (`workspace.worktree`, each eval.json's
`candidate`, the checkpointed state's paths) relative to the run folder, the kernel file the run
started from (`kernel_file`, `config.start_source`) relative to the repository root, and a file outside
the repository absolute.
"""

from __future__ import annotations

import datetime as dt
import difflib
import fcntl
import hashlib
import json
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from tools.evaluator.decide import Decision
from tools.evaluator.records import EvalRecord, KernelSource
from tools.paths import EXAMPLE_RUNS, PROJECT_ROOT, RUNS_DIR, record_path, sha256_file
from workbench.kernels.backends import backend as backend_of

if TYPE_CHECKING:
    from tools.workspace import Workspace

RUN_FILE = "run.json"
EVENTS_FILE = "events.jsonl"
HOLD_FILE = "run.lock"  # flocked by the process running the run (RunFolder.hold)
SOURCES_DIR = "sources"
Outcome = Literal["accepted", "rejected", "failed"]


def new_run_id(op: str, backend: str) -> str:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{op}-{backend}-{secrets.token_hex(2)}"


def candidate_suffix(index: int) -> str:
    """File suffix of a round's candidate: candidate.py, eval.json for the first; candidate-2.py, ... after."""
    return "" if index == 0 else f"-{index + 1}"


def candidate_label(iteration: int, index: int) -> str:
    """How a candidate is named to a reader: "7" for the first of iteration 7, "7.2" for its second."""
    return f"{iteration}" if index == 0 else f"{iteration}.{index + 1}"


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def read_record(path: str | Path, required: bool = False) -> EvalRecord | None:
    """An eval.json as a record, without its generated sources (`RunFolder.read_record` adds them): None when it
    is missing or still being written, unless `required` (then it raises)."""
    try:
        return EvalRecord.model_validate_json(Path(path).read_text())
    except (OSError, ValueError, ValidationError):
        if required:
            raise
        return None


class SourceRef(BaseModel):
    """One generated kernel source of an evaluation: its key and language as the record had them, and where its
    text is (relative to the run folder). Identical sources of many iterations share one file."""

    key: str
    language: str
    file: str


# ---------------------------------------------------------------------------------------------- run.json


class Summary(BaseModel):
    """run.json's `start` and `best`: one version's speed, as the loop summarised its record."""

    model_config = ConfigDict(extra="allow")

    status: str | None = None
    scope: str | None = None  # its decision scope
    median_gbps: float | None = None
    median_fraction_of_copy: float | None = None
    geomean_vs_eager: float | None = None
    shapes: dict[str, dict] = {}  # per shape: gbps, fraction_of_copy, median_us, eager_us, graph_us
    iteration: int | None = None  # `best` only: the iteration it came from
    commit: str | None = None  # `best` only: its commit, where it was accepted

    @classmethod
    def of(cls, record: EvalRecord, **fields) -> Summary:
        """A record's summary, in its decision scope (and `fields`: iteration, commit)."""
        scope = record.decision_scope()
        shapes = {}
        for b in record.benchmark:
            result = b.scope(scope) if scope else None
            if result is None or result.candidate is None:
                continue
            shapes[b.shape] = {
                "gbps": result.gbps,
                "fraction_of_copy": result.fraction_of_copy,
                "median_us": result.candidate.median_us,
                "eager_us": b.eager.candidate.median_us if b.eager and b.eager.candidate else None,
                "graph_us": b.graph.candidate.median_us if b.graph and b.graph.candidate else None,
            }
        return cls(
            status=record.status,
            scope=scope,
            median_gbps=record.median_gbps(),
            median_fraction_of_copy=record.median_fraction_of_copy(),
            geomean_vs_eager=record.geomean_speedup("torch"),
            shapes=shapes,
            **fields,
        )


class TokenCount(BaseModel):
    """Tokens an endpoint reported (the `usage` of its replies), and their cost where prices were given."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0  # proposals and reflections that reported usage
    cost: float | None = None  # in the prices' currency: prompt and completion tokens at --price-in / --price-out

    def add(self, usage: dict | None) -> None:
        if usage:
            self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self.completion_tokens += int(usage.get("completion_tokens") or 0)
            self.calls += 1

    def priced(self, price_in: float | None, price_out: float | None) -> TokenCount:
        if price_in is None and price_out is None:
            return self
        cost = (self.prompt_tokens * (price_in or 0) + self.completion_tokens * (price_out or 0)) / 1e6
        return self.model_copy(update={"cost": cost})


class Tokens(TokenCount):
    """run.json's `tokens`: the run's totals, and the same per iteration (keyed by its number, as a string)."""

    per_iteration: dict[str, TokenCount] = {}
    price_in: float | None = None  # per million prompt tokens, as given
    price_out: float | None = None  # per million completion tokens, as given


class RunInfo(BaseModel):
    """run.json: written at the start, updated as the run goes; a run in progress lacks its end-of-run fields."""

    model_config = ConfigDict(extra="allow")

    run_id: str | None = None
    created: str | None = None
    updated: str | None = None
    finished: str | None = None
    status: str | None = None  # running, stopped, finished, failed (something raised: `stop_reason` says what)
    config: dict = {}  # agent.config.RunConfig as a dict
    environment: dict = {}  # tools.env.Environment as a dict
    kernel_file: str | None = None  # relative to the repository root (agent adopt writes it)
    workspace: dict | None = None  # tools.workspace.Workspace.to_dict, its worktree relative to the run folder
    start: Summary | None = None
    best: Summary | None = None
    iterations: int = 0
    commits: list[str] = []
    branch: str | None = None
    stop_reason: str | None = None
    tokens: Tokens | None = None  # the llm's tokens, per run and per iteration (from the events)


# ---------------------------------------------------------------------------------------------- events


class Event(BaseModel):
    """One line of events.jsonl; the kinds the readers use have their own model below."""

    model_config = ConfigDict(extra="allow")

    time: str | None = None
    event: str
    iteration: int | None = None


class ProposalEvent(Event):
    index: int = 0
    rationale: str = ""
    model: str | None = None
    usage: dict | None = None
    reasks: int = 0


class ReflectionEvent(Event):
    """A reflection on one candidate; its prompt and reply are in the iteration's reflection-prompt/-response files."""

    index: int = 0
    text: str = ""
    model: str | None = None
    usage: dict | None = None


class DecideEvent(Event):
    """The round's decision, written once when it is made: each candidate's Decision and outcome, the winner."""

    accepted: int | None = None  # index of the candidate the round keeps
    decisions: list[Decision] = []  # one per candidate; an older judge's read by its words (decide.py)
    outcomes: list[Outcome] = []  # one per candidate

    def decision(self, index: int) -> Decision | None:
        """A candidate's decision; one that passed the rule in a round that kept another is beaten."""
        if index >= len(self.decisions):
            return None
        decision = self.decisions[index]
        return decision if index == self.accepted else decision.beaten()

    def outcome(self, index: int) -> Outcome:
        """A candidate's outcome as the loop decided it."""
        return self.outcomes[index]


class CommitEvent(Event):
    sha: str | None = None
    message: str | None = None  # the commit message's first line


EVENT_MODELS: dict[str, type[Event]] = {
    "proposal": ProposalEvent,
    "reflection": ReflectionEvent,
    "decide": DecideEvent,
    "commit": CommitEvent,
}


class RunBusyError(RuntimeError):
    """Another live process is running this run."""


class RunFolder:
    def __init__(self, path: Path):
        self.path = Path(path).absolute()  # recorded paths stay right after a chdir (the git worktree)

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
            example = EXAMPLE_RUNS / run_id / RUN_FILE
            hint = f"; it is an example run: add --runs-dir {record_path(EXAMPLE_RUNS)}" if example.exists() else ""
            raise FileNotFoundError(
                f"no run {run_id!r} under {root}" + (hint or (f"; recent runs: {known}" if known else ""))
            )
        return cls(path)

    @property
    def run_id(self) -> str:
        return self.path.name

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Be the one live process of this run while the block runs; refuse if another one is.

        The kernel drops the lock when its holder dies however it dies, so a killed run never blocks
        its resume, and what the holder finds half-written (git locks, say) is its own to clean."""
        with open(self.path / HOLD_FILE, "a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                raise RunBusyError(
                    f"run {self.run_id} is being run by {holder}; wait for it to end, or stop that "
                    "process (Ctrl-C in its terminal), then resume"
                ) from None
            handle.truncate(0)
            handle.write(f"pid {os.getpid()}\n")
            handle.flush()
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

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
        """A path this run recorded, on this machine: relative ones are inside the run folder (tools/paths.py)."""
        return self.path / recorded

    def workspace(self, run: dict | None = None) -> Workspace:
        """The run's git workspace, its worktree located on this machine."""
        data = (run if run is not None else self.read_json("run.json"))["workspace"]
        from tools.workspace import Workspace

        return Workspace.from_dict({**data, "worktree": str(self.locate(data["worktree"]))})

    def iteration_path(self, iteration: int) -> Path:
        return self.path / "iterations" / f"{iteration:04d}"

    def iteration_dir(self, iteration: int) -> Path:
        """The iteration's folder, made if it is not there yet (for writing)."""
        folder = self.iteration_path(iteration)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def iterations(self) -> list[int]:
        """The iterations that have a folder, in order (0 is the starting kernel)."""
        return [int(p.name) for p in sorted((self.path / "iterations").glob("[0-9][0-9][0-9][0-9]"))]

    def _file(self, iteration: int, index: int, stem: str, extension: str) -> Path:
        return self.iteration_path(iteration) / f"{stem}{candidate_suffix(index)}.{extension}"

    def candidate(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "candidate", "py")

    def diff(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "diff", "patch")

    def record(self, iteration: int, index: int = 0) -> Path:
        """The candidate's eval.json."""
        return self._file(iteration, index, "eval", "json")

    def prompt(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "prompt", "md")

    def response(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "response", "md")

    def profile(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "profile", "txt")

    def generated(self, iteration: int, index: int = 0) -> Path:
        """The list of the candidate's generated sources (generated.json: SourceRef per source)."""
        return self._file(iteration, index, "generated", "json")

    def e2e(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "e2e", "json")

    def reflection(self, iteration: int) -> Path:
        """The iteration's reflections, one per candidate, as the policy wrote them."""
        return self.iteration_path(iteration) / "reflection.md"

    def reflection_prompt(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "reflection-prompt", "md")

    def reflection_response(self, iteration: int, index: int = 0) -> Path:
        return self._file(iteration, index, "reflection-response", "md")

    def candidate_indices(self, iteration: int) -> list[int]:
        """The candidates of an iteration that have a file, by index (candidate.py is 0, candidate-2.py is 1)."""
        indices = set()
        for path in self.iteration_path(iteration).glob("candidate*.py"):
            tail = path.stem.removeprefix("candidate")
            if tail == "":
                indices.add(0)
            elif tail.startswith("-") and tail[1:].isdigit():
                indices.add(int(tail[1:]) - 1)
        return sorted(indices)

    def read_record(self, iteration: int, index: int = 0) -> EvalRecord | None:
        """The candidate's eval.json with its generated sources put back."""
        record = read_record(self.record(iteration, index))
        if record is not None and record.compile is not None:
            record.compile.sources = self.read_sources(iteration, index)
        return record

    def read_sources(self, iteration: int, index: int = 0) -> list[KernelSource]:
        """The generated sources of a candidate's evaluation; none where it has none or they are unreadable."""
        try:
            refs = [SourceRef.model_validate(r) for r in json.loads(self.generated(iteration, index).read_text())]
            return [KernelSource(key=r.key, language=r.language, text=(self.path / r.file).read_text()) for r in refs]
        except (OSError, ValueError, ValidationError):
            return []

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

    def save_candidate(self, iteration: int, index: int, source: str) -> Path:
        self.iteration_dir(iteration)
        path = self.candidate(iteration, index)
        path.write_text(source)
        return path

    def save_proposal(
        self, iteration: int, index: int, source: str, best_source: str, prompt: str = "", response: str = ""
    ) -> Path:
        """A proposal's files: the candidate, its diff against the best, the prompt and reply where an LLM made it."""
        path = self.save_candidate(iteration, index, source)
        diff = difflib.unified_diff(
            best_source.splitlines(keepends=True),
            source.splitlines(keepends=True),
            fromfile="best.py",
            tofile=path.name,
        )
        self.diff(iteration, index).write_text("".join(diff))
        if prompt:
            self.prompt(iteration, index).write_text(prompt)
        if response:
            self.response(iteration, index).write_text(response)
        return path

    def save_evaluation(self, iteration: int, index: int, record: EvalRecord) -> str:
        """eval.json, its generated sources and the profile beside the candidate; returns eval.json's path in the
        run folder. Each source is stored once per run (sources/<hash>), however many iterations compiled it."""
        path = self.iteration_dir(iteration) / self.record(iteration, index).name
        record.candidate = self.relative(self.candidate(iteration, index))  # the file evaluated, wherever it goes
        if record.compile and record.compile.sources:
            extension = backend_of(record.backend).extension
            refs = [self._store_source(s, extension) for s in record.compile.sources]
            self.generated(iteration, index).write_text(json.dumps([r.model_dump() for r in refs]) + "\n")
        self.rewrite_record(path, record)
        if record.profile:
            from tools.evaluator.profile import summarise

            self.profile(iteration, index).write_text(summarise(record.profile) + "\n")
        return self.relative(path)

    def rewrite_record(self, path: str | Path, record: EvalRecord) -> None:
        """Write a candidate's eval.json (its path in or under the run folder) without the generated sources'
        text, which save_evaluation stored apart."""
        text = record.model_dump_json(exclude={"compile": {"sources"}})
        self.write(Path(self.locate(path)).resolve().relative_to(self.path.resolve()), self.portable(text) + "\n")

    def _store_source(self, source: KernelSource, extension: str) -> SourceRef:
        text = self.portable(source.text)  # maca_cpp: #line paths
        name = f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.{extension}"
        target = self.path / SOURCES_DIR / name
        if not target.exists():
            self.write(Path(SOURCES_DIR) / name, text)
        return SourceRef(key=source.key, language=source.language, file=f"{SOURCES_DIR}/{name}")

    def save_reflection(self, iteration: int, text: str) -> None:
        self.iteration_dir(iteration)
        self.reflection(iteration).write_text(text)

    def save_reflection_exchange(self, iteration: int, index: int, prompt: str, response: str) -> None:
        """A reflection's prompt and the reply, where a model wrote it."""
        self.iteration_dir(iteration)
        if prompt:
            self.reflection_prompt(iteration, index).write_text(prompt)
        if response:
            self.reflection_response(iteration, index).write_text(response)

    def info(self) -> RunInfo | None:
        """run.json, typed; None while it is missing or being written."""
        try:
            return RunInfo.model_validate_json((self.path / RUN_FILE).read_text())
        except (OSError, ValueError, ValidationError):
            return None

    def update_run(self, **fields) -> dict:
        current = self.read_json(RUN_FILE) if (self.path / RUN_FILE).exists() else {}
        current.update(fields)
        current["updated"] = now()
        RunInfo.model_validate(current)  # a field of the wrong type fails here, not in a reader later
        self.write(RUN_FILE, json.dumps(current, indent=1) + "\n")
        return current

    def event(self, kind: str, **payload) -> None:
        entry = {"time": now(), "event": kind, **payload}
        EVENT_MODELS.get(kind, Event).model_validate(entry)  # what a reader's model cannot read is not written
        line = self.portable(json.dumps(entry))
        with open(self.path / "events.jsonl", "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def best_candidate(self, run: dict | None = None) -> Path | None:
        """The candidate file of the run's best accepted version, as the judge evaluated it; None if none was.

        From the run folder alone (its git worktree may be on another machine): run.json names the
        iteration, that iteration's decide event the candidate, and its eval.json the file's hash.
        """
        run = run if run is not None else self.read_json(RUN_FILE)
        best = Summary.model_validate(run.get("best") or {})
        iteration = best.iteration
        if not iteration or not best.commit:
            return None
        decided = self.decisions().get(iteration)
        index = decided.accepted if decided else None
        if index is None:
            raise RuntimeError(
                f"run {self.run_id}: run.json says iteration {iteration} was accepted, but events.jsonl has no "
                "decision accepting a candidate of it; the run folder is incomplete"
            )
        folder = self.iteration_path(iteration)
        candidate, record = self.candidate(iteration, index), self.record(iteration, index)
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
        """events.jsonl as written, skipping a line still being appended (it is read complete next time)."""
        try:
            text = (self.path / EVENTS_FILE).read_text()
        except OSError:
            return []
        events = []
        for line in text.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and "event" in event:
                events.append(event)
        return events

    def _typed(self, kind: str, events: list[dict] | None) -> list:
        events = self.events() if events is None else events
        return [EVENT_MODELS[kind].model_validate(e) for e in events if e["event"] == kind]

    def proposals(self, events: list[dict] | None = None) -> list[ProposalEvent]:
        """Every proposal's event, in the order they were made (`events`: already read, not read again)."""
        return self._typed("proposal", events)

    def reflections(self, events: list[dict] | None = None) -> list[ReflectionEvent]:
        """Every reflection's event, in order."""
        return self._typed("reflection", events)

    def tokens(
        self, price_in: float | None = None, price_out: float | None = None, events: list[dict] | None = None
    ) -> Tokens:
        """The tokens of every proposal and reflection so far, per run and per iteration (and their cost, where
        a price is given). Counted from the events: a proposal asked again after a resume cost its tokens twice."""
        events = self.events() if events is None else events
        total = Tokens(price_in=price_in, price_out=price_out)
        per: dict[str, TokenCount] = {}
        for event in [*self.proposals(events), *self.reflections(events)]:
            total.add(event.usage)
            per.setdefault(str(event.iteration), TokenCount()).add(event.usage)
        total = total.priced(price_in, price_out)
        ordered = sorted(per.items(), key=lambda item: int(item[0]))
        return total.model_copy(update={"per_iteration": {k: v.priced(price_in, price_out) for k, v in ordered}})

    def decisions(self, events: list[dict] | None = None) -> dict[int, DecideEvent]:
        """Each round's decision, by iteration (the last one, should a resumed run have decided a round twice)."""
        return {e.iteration: e for e in self._typed("decide", events)}

    def commits(self, events: list[dict] | None = None) -> dict[int, CommitEvent]:
        """Each accepted version's commit, by iteration."""
        return {e.iteration: e for e in self._typed("commit", events)}


def is_run_folder(path: Path) -> bool:
    """A run folder, whatever state it is in: it has run.json, events.jsonl or iterations/."""
    return path.is_dir() and any((path / name).exists() for name in (RUN_FILE, EVENTS_FILE, "iterations"))


def list_runs(root: Path = RUNS_DIR) -> list[RunFolder]:
    """Every run folder under `root`, by name; an empty or missing folder gives none."""
    root = Path(root)
    if not root.is_dir():
        return []
    return [RunFolder(p) for p in sorted(root.iterdir()) if is_run_folder(p)]
