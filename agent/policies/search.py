"""The `search` policy: a measured walk over the kernel's SEARCH_SPACE and the design catalogue.

No LLM. Each proposal is a real edit of the kernel file's CONFIG literal with a
one-line rationale. It is guided by what was measured, not a blind grid:

1. keep going in a direction that just won (the same key, one more step);
2. try the untried neighbours of the best configuration, one key at a time,
   skipping directions that already lost from this best;
3. then the catalogue's known designs for this op and backend;
4. then configurations two steps away from the best;
5. then the rest of the space, best predicted first: each value of each key is scored by
   the mean fraction of copy bandwidth of the attempts that used it (a value not yet
   measured gets the best score seen, so it is tried before known losers).

A kernel file may declare UNUSED_KEYS, `{"rows=True": ["block_tokens"], ...}`: under that setting
those keys change nothing, and a proposal that changes only such keys is skipped. Without it, two
of three iterations of an H200 run from rope_qk[tilelang]'s rows design timed an unchanged kernel.
"""

from __future__ import annotations

import ast
import itertools
import statistics

from agent.policies.base import Attempt, Proposal, ProposalContext, Reflection, ReflectionContext
from agent.policies.catalogue import designs
from agent.policies.source_edit import read_literal, replace_config
from tools.lessons import lesson


def _key(config: dict) -> tuple:
    return tuple(sorted(config.items()))


def _step(space: dict, config: dict, key: str, direction: int) -> dict | None:
    values = space[key]
    if config[key] not in values:
        return None
    index = values.index(config[key]) + direction
    if not 0 <= index < len(values):
        return None
    return {**config, key: values[index]}


# Enumerating the rest of the space stops here (a few keys of a few values each are far below it).
MAX_GRID = 4096


def _describe(before: dict, after: dict) -> str:
    changes = [f"{k} {before[k]} -> {after[k]}" for k in after if before.get(k) != after[k]]
    return ", ".join(changes) or "no change"


def _predicted(best: dict, space: dict, keys: list[str], attempts: list[Attempt]):
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


def _inert(best: dict, config: dict, rules: dict[tuple[str, object], set[str]]) -> bool:
    """Whether every key `config` changes from `best` is unused under `config`'s own settings."""
    changed = {k for k in config if config[k] != best.get(k)}
    unused = set().union(*(keys for (k, v), keys in rules.items() if config.get(k) == v))
    return bool(changed) and changed <= unused


class SearchPolicy:
    name = "search"

    def __init__(self, op: str, backend: str):
        self._designs = designs(op, backend)

    def propose(self, context: ProposalContext) -> list[Proposal]:
        best = read_literal(context.best_source, "CONFIG")
        space = read_literal(context.best_source, "SEARCH_SPACE")
        rules = unused_keys(context.best_source)
        tried = {_key(a.config) for a in context.attempts if a.config} | {_key(best)}
        proposals: list[Proposal] = []
        for config, why in self._candidates(best, space, context.attempts):
            if _key(config) in tried or not all(config.get(k) in v for k, v in space.items() if k in config):
                continue
            tried.add(_key(config))
            if _inert(best, config, rules):
                continue
            source = replace_config(context.best_source, config)
            rationale = f"{_describe(best, config)}: {why}"
            proposals.append(Proposal(source=source, rationale=rationale))
            if len(proposals) == context.k:
                break
        return proposals

    def _candidates(self, best: dict, space: dict, attempts: list[Attempt]):
        keys = [k for k in space if k in best]
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
        for design in self._designs:
            yield {**best, **design.config}, f"catalogue design '{design.name}': {design.rationale}"
        for k1, k2 in itertools.combinations(keys, 2):
            for d1, d2 in itertools.product((1, -1), repeat=2):
                first = _step(space, best, k1, d1)
                second = _step(space, first, k2, d2) if first else None
                if second:
                    yield second, f"two steps from the best, along {k1} and {k2}"
        yield from _predicted(best, space, keys, attempts)

    def reflect(self, context: ReflectionContext) -> Reflection:
        """What this step taught, from its decision (tools/lessons.py); empty where there is nothing to say."""
        text = lesson(context.rationale, context.decision)
        return Reflection(text=f"Iteration {context.iteration}: {text}" if text else "")
