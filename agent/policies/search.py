"""The `search` policy: a measured walk over a kernel file's knobs and the design catalogue.

No LLM. Each proposal is a real edit of the kernel file's knob literals (kernels/kernel_file.py: a declared
CONFIG and SEARCH_SPACE, or the constants, builder defaults and launch parameters the syntax tree shows)
with a one-line rationale. It is guided by what was measured, not a blind grid:

0. where a candidate won on most shapes but was slower beyond noise on one shape class (decode or prefill),
   a dispatch by shape class that keeps the best's configuration for that class and the candidate's for
   the other (agent/policies/source_edit.py), in files that declare CONFIG;
1. keep going in a direction that just won (the same knob, one more step);
2. try the untried neighbours of the best configuration, one knob at a time,
   skipping directions that already lost from this best;
3. then the catalogue's known designs for this op and backend, in files of the shipped convention only;
4. then configurations two steps away from the best;
5. then the rest of the space, best predicted first: each value of each knob is scored by
   the mean fraction of copy bandwidth of the attempts that used it (a value not yet
   measured gets the best score seen, so it is tried before known losers).

With `search="optuna"`, steps 1-5 are Optuna's TPE sampler instead, over the same knobs: its study is rebuilt
from the run's attempts at each proposal (they are the checkpointed record), seeded with the catalogue's
designs (`enqueue_trial`); the judge's early stop at the first shape slower beyond noise is its pruning.

No proposal repeats a configuration already timed: an earlier attempt's, the current best's, or a best of
an earlier time (the start included), read back from the rationales of the accepted attempts.

A kernel file may declare UNUSED_KEYS, `{"rows=True": ["block_tokens"], ...}`: under that setting
those keys change nothing, and a proposal that changes only such keys is skipped. Without it, two
of three iterations of an H200 run from rope_qk[tilelang]'s rows design timed an unchanged kernel.
"""

from __future__ import annotations

import ast
import itertools
import re
import statistics
from collections.abc import Iterator
from typing import Literal

from agent.policies.base import Attempt, Proposal, ProposalContext, Reflection, ReflectionContext
from agent.policies.catalogue import designs
from agent.policies.source_edit import dispatch_by_class
from tools.lessons import lesson
from workbench.kernels.design import Design
from workbench.kernels.kernel_file import (
    CLASS_CONFIG,
    KernelFileError,
    Knob,
    follows_convention,
    knobs,
    read_literal,
    set_knobs,
)

SearchMethod = Literal["walk", "optuna"]
Config = dict[str, object]

# Enumerating the rest of the space stops here (a few keys of a few values each are far below it).
MAX_GRID = 4096
# Optuna's asks per proposal before it is taken as spent (each already-timed one is told as failed).
MAX_ASKS = 256

_SLOWER = "slower than the best beyond noise"
_WORST = re.compile(r"worst (\S+)")
# One change in a rationale, as _describe writes it: "NAME BEFORE -> AFTER".
_CHANGE = re.compile(r"(?:^|, )(\S+) (\S+) -> ([^\s,:]+)")
_SPLIT = "dispatch by shape class"


def _key(config: Config) -> tuple:
    return tuple(sorted(config.items(), key=lambda item: item[0]))


def _step(space: dict, config: Config, key: str, direction: int) -> Config | None:
    values = space[key]
    if config[key] not in values:
        return None
    index = values.index(config[key]) + direction
    if not 0 <= index < len(values):
        return None
    return {**config, key: values[index]}


def _describe(before: Config, after: Config) -> str:
    changes = [f"{k} {before[k]} -> {after[k]}" for k in after if before.get(k) != after[k]]
    return ", ".join(changes) or "no change"


def _undo(attempt: Attempt) -> Config | None:
    """The best of an accepted attempt's time: its configuration with its rationale's changes undone."""
    if not attempt.config or attempt.rationale.startswith(_SPLIT):
        return None
    head = attempt.rationale.split(": ", 1)[0]
    before = dict(attempt.config)
    for name, old, new in _CHANGE.findall(head):
        if name not in before or str(before[name]) != new:
            return None
        try:
            before[name] = ast.literal_eval(old)
        except (ValueError, SyntaxError):
            return None
    return before if before != attempt.config else None


def _predicted(best: Config, space: dict, keys: list[str], attempts: list[Attempt]):
    """Every configuration of the space, ranked by the sum of its values' measured scores."""
    measured = [a for a in attempts if a.config and a.median_fraction_of_copy is not None]
    if not measured or not keys:
        return
    top = max(a.median_fraction_of_copy for a in measured)
    score = {}  # (key, value) -> mean fraction of the attempts that used it; the best seen when none did
    for key in keys:
        for value in space[key]:
            seen = [a.median_fraction_of_copy for a in measured if a.config.get(key) == value]
            score[key, value] = statistics.mean(seen) if seen else top

    grid = itertools.islice(itertools.product(*(space[k] for k in keys)), MAX_GRID)
    ranked = sorted(
        (dict(zip(keys, values, strict=True)) for values in grid),
        key=lambda config: -sum(score[k, config[k]] for k in keys),
    )
    for config in ranked:
        parts = ", ".join(f"{k}={config[k]} {score[k, config[k]]:.2f}" for k in keys)
        yield {**best, **config}, f"ranked by the attempts' mean fraction of copy per value ({parts})"


def unused_keys(source: str) -> dict[tuple[str, object], set[str]]:
    """The kernel file's UNUSED_KEYS as {(key, value): keys that setting leaves unused}; {} without one."""
    rules = read_literal(source, "UNUSED_KEYS", default={})
    parsed = {}
    for condition, keys in rules.items():
        key, sep, value = str(condition).partition("=")
        if not sep:
            raise ValueError(f"UNUSED_KEYS: write each condition as KEY=VALUE (e.g. 'rows=True'), not {condition!r}")
        parsed[key.strip(), ast.literal_eval(value.strip())] = set(keys)
    return parsed


def _inert(best: Config, config: Config, rules: dict[tuple[str, object], set[str]]) -> bool:
    """Whether every key `config` changes from `best` is unused under `config`'s own settings."""
    changed = {k for k in config if config[k] != best.get(k)}
    unused = set().union(*(keys for (k, v), keys in rules.items() if config.get(k) == v))
    return bool(changed) and changed <= unused


def applicable(design: Design, source: str, space: dict) -> bool:
    """Whether a catalogue design fits this file: the shipped convention, and each of its keys a knob of the
    file's CONFIG with the design's value in its SEARCH_SPACE (a design never adds a key to a user's CONFIG)."""
    return follows_convention(source) and all(k in space and v in space[k] for k, v in design.config.items())


def shape_class(shape: str) -> str:
    """'decode' or 'prefill' for a shape's name as the judge reports it (NamedShape.decode)."""
    return "decode" if "decode" in shape else "prefill"


class SearchPolicy:
    name = "search"

    def __init__(self, op: str, backend: str, search: SearchMethod = "walk", seed: int = 0):
        if search not in ("walk", "optuna"):
            raise ValueError(f"search method {search!r}: use walk or optuna")
        if search == "optuna":
            try:
                import optuna  # noqa: F401
            except ImportError:
                raise ValueError('--search optuna needs Optuna: pip install -e ".[optuna]"') from None
        self.op, self.search, self.seed = op, search, seed
        self._designs = designs(op, backend)

    def propose(self, context: ProposalContext) -> list[Proposal]:
        source = context.best_source
        found = knobs(source)
        best = {k.name: k.value for k in found}
        space = {k.name: list(k.candidates) for k in found}
        rules = unused_keys(source)
        tried = self._timed(best, space, context.attempts)
        proposals: list[Proposal] = []
        for candidate in self._candidates(source, found, best, space, context.attempts):
            if isinstance(candidate, Proposal):  # a rewrite beyond knob values (the shape-class dispatch)
                proposals.append(candidate)
            else:
                config, why = candidate
                if _key(config) in tried or not all(config[k] in space[k] for k in config):
                    continue
                tried.add(_key(config))
                if _inert(best, config, rules):
                    continue
                changed = {k: v for k, v in config.items() if v != best[k]}
                rationale = f"{_describe(best, config)}: {why}"
                proposals.append(Proposal(source=set_knobs(source, changed), rationale=rationale))
            if len(proposals) == context.k:
                break
        return proposals

    @staticmethod
    def _timed(best: Config, space: dict, attempts: list[Attempt]) -> set[tuple]:
        """Configurations already timed, as knob points of this file: attempts, earlier bests, the current one."""
        configs = [a.config for a in attempts if a.config]
        configs += [before for a in attempts if a.outcome == "accepted" and (before := _undo(a))]
        return {_key({k: c.get(k) for k in space}) for c in configs} | {_key(best)}

    def _candidates(self, source: str, found: list[Knob], best: Config, space: dict, attempts: list[Attempt]):
        split = self._split(source, found, best, attempts)
        if split is not None:
            yield split
        designs_here = [d for d in self._designs if applicable(d, source, space)]
        if self.search == "optuna":
            yield from self._optuna(best, space, attempts, designs_here)
        else:
            yield from self._walk(best, space, attempts, designs_here)

    def _walk(self, best: Config, space: dict, attempts: list[Attempt], designs_here: list[Design]) -> Iterator:
        keys = list(space)
        last = next((a for a in reversed(attempts) if a.outcome == "accepted" and a.config), None)
        lost = {
            (k, 1 if space[k].index(a.config[k]) > space[k].index(best[k]) else -1)
            for a in attempts
            if a.outcome != "accepted" and a.config
            for k in keys
            if a.config.get(k) != best[k] and a.config.get(k) in space[k] and best[k] in space[k]
        }
        previous = next((a for a in reversed(attempts) if a.outcome == "accepted" and a.config and a is not last), None)
        if last and previous:
            for k in keys:
                if last.config.get(k) != previous.config.get(k) and previous.config.get(k) in space[k]:
                    direction = 1 if space[k].index(last.config[k]) > space[k].index(previous.config[k]) else -1
                    step = _step(space, best, k, direction)
                    if step:
                        yield step, f"{k} moved this way and won last time; one more step"
        for k in keys:
            for direction in (1, -1):
                if (k, direction) in lost:
                    continue
                step = _step(space, best, k, direction)
                if step:
                    yield step, f"neighbour of the best configuration along {k}"
        for design in designs_here:
            yield {**best, **design.config}, f"catalogue design '{design.name}': {design.rationale}"
        for k1, k2 in itertools.combinations(keys, 2):
            for d1, d2 in itertools.product((1, -1), repeat=2):
                first = _step(space, best, k1, d1)
                second = _step(space, first, k2, d2) if first else None
                if second:
                    yield second, f"two steps from the best, along {k1} and {k2}"
        yield from _predicted(best, space, keys, attempts)

    def _optuna(self, best: Config, space: dict, attempts: list[Attempt], designs_here: list[Design]) -> Iterator:
        import optuna
        from optuna.distributions import CategoricalDistribution
        from optuna.trial import TrialState, create_trial

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        distributions = {k: CategoricalDistribution(values) for k, values in space.items()}
        study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=self.seed))
        for attempt in attempts:
            if not attempt.config or any(attempt.config.get(k) not in space[k] for k in space):
                continue
            params = {k: attempt.config[k] for k in space}
            value = attempt.median_fraction_of_copy
            state = TrialState.COMPLETE if value is not None else TrialState.FAIL
            study.add_trial(create_trial(params=params, distributions=distributions, value=value, state=state))
        for design in designs_here:
            study.enqueue_trial({**best, **design.config}, skip_if_exists=True)
        for _ in range(MAX_ASKS):
            trial = study.ask(distributions)
            config = {k: trial.params[k] for k in space}
            study.tell(trial, state=TrialState.FAIL)  # the judge's figure comes with the next proposal's attempts
            design = next((d for d in designs_here if config == {**best, **d.config}), None)
            why = f"catalogue design '{design.name}': {design.rationale}" if design else "Optuna TPE over the knobs"
            yield config, why

    def _split(self, source: str, found: list[Knob], best: Config, attempts: list[Attempt]) -> Proposal | None:
        """A dispatch by shape class, after a candidate since the best won overall but lost on one class."""
        if not found or found[0].kind != "config" or CLASS_CONFIG in source:
            return None
        since = list(itertools.takewhile(lambda a: a.outcome != "accepted", reversed(attempts)))
        if any(a.rationale.startswith(_SPLIT) for a in since):
            return None
        for attempt in since:
            worst = _WORST.search(attempt.message)
            if _SLOWER not in attempt.message or not worst or not (attempt.geomean_vs_best or 0) > 1:
                continue
            if not attempt.config or not set(best) <= set(attempt.config):
                continue
            config = read_literal(source, "CONFIG")
            theirs = {**config, **{k: attempt.config[k] for k in best}}
            if theirs == config:
                continue
            lost = shape_class(worst.group(1))
            classes = {lost: config, "prefill" if lost == "decode" else "decode": theirs}
            try:
                edited = dispatch_by_class(source, self.op, classes["decode"], classes["prefill"])
            except KernelFileError:
                return None
            won = "prefill" if lost == "decode" else "decode"
            return Proposal(
                source=edited,
                rationale=f"{_SPLIT}: {won} takes iteration {attempt.iteration}'s {_describe(config, theirs)}, "
                f"{lost} keeps the best's (it was slower on {worst.group(1)}; geomean {attempt.geomean_vs_best:.3f}x)",
            )
        return None

    def reflect(self, context: ReflectionContext) -> Reflection:
        """What this step taught, from its decision (tools/lessons.py); empty where there is nothing to say."""
        text = lesson(context.rationale, context.decision)
        return Reflection(text=f"Iteration {context.iteration}: {text}" if text else "")


def refusal(source: str, path: str) -> str | None:
    """Why the search policy cannot tune the file at `path`, in one line with what to add; None where it can."""
    if knobs(source):
        return None
    return (
        f"{path} has no knob the search policy can tune: no module-level integer constant, keyword default of a "
        "builder, launch parameter or CONFIG; add CONFIG = {...} and SEARCH_SPACE = {...}, or use --policy llm"
    )
