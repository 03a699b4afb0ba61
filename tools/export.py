"""`agent export <run-id>`: prompts.md and reflection.md, from the run folder alone.

prompts.md has one section per proposal of a run that asked an LLM; a run where no LLM was asked (the
search policy's) says so at the top and has the iteration log instead: what each iteration tried and
what became of it. reflection.md groups the proposals not adopted by the rule that turned them down.
Bandwidth is in GB/s throughout, as the UI and the evaluator's tables give it.

Every result names its timing scope (tools/evaluator/records.py): `graph` (CUDA-graph replay: device time) or
`eager` (per call with the host launch cost), both from the judge's clock. Headline figures are of the
decision scope; the measured-results table has both scopes' per-call times.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tools.evaluator.decide import Decision
from tools.evaluator.records import EvalRecord
from tools.lessons import lesson
from tools.paths import PROJECT_ROOT, RUNS_DIR, record_path
from tools.runfolder import RUN_FILE, RunFolder, Summary, candidate_label

UNDECIDED = "not decided"
# Confinement modes of records from before the sandbox (tools/evaluator/records.py: Confinement.mode).
LEGACY_MODES = ("root", "user")


def _rule(decision: Decision | None) -> str:
    """The rule a decision names (tools/evaluator/decide.py: Decision.label), or "not decided"."""
    return decision.label if decision is not None else UNDECIDED


def _label(scope: str | None) -> str:
    return scope or "unknown"


def _rate(gbps: float | None) -> str:
    """Bandwidth in GB/s, the one unit of both files (and of the UI)."""
    return f"{_gbps(gbps)} GB/s" if gbps else "-"


def _result(record: EvalRecord | None, decision: Decision | None) -> str:
    """The Result line of a proposal: its speed in the decision scope, named, then the evaluator's message."""
    if record is None:
        return "not evaluated"
    scope = (decision.scope if decision else None) or record.decision_scope()
    if not scope or not record.benchmark:
        return record.message
    geomean = decision.geomean_speedup if decision else None
    head = f"{_label(scope)} scope: " + (f"{geomean:.2f}x over the best" if geomean else "no ratio to the best")
    gbps, fraction = record.median_gbps(scope), record.median_fraction_of_copy(scope)
    if gbps:
        head += f", median shape {_rate(gbps)}" + (f" ({100 * fraction:.0f}% of copy)" if fraction else "")
    return f"{head}; {record.message}" if record.message else head


def _rounds(folder: RunFolder) -> list[dict]:
    """One entry per proposal: its iteration, files, event data and decision."""
    decisions, commits = folder.decisions(), folder.commits()
    rounds = []
    for event in folder.proposals():
        iteration, index = event.iteration, event.index
        decided = decisions.get(iteration)
        decision = decided.decision(index) if decided else None
        record = folder.read_record(iteration, index)
        adopted = bool(decided and decided.accepted == index) and iteration in commits
        rounds.append(
            {
                "iteration": iteration,
                "index": index,
                "label": candidate_label(iteration, index),
                "time": event.time,
                "event": event,
                "decision": decision,
                "outcome": decided.outcome(index) if decided else None,
                "rule": _rule(decision),
                "adopted": adopted,
                "commit": commits[iteration].sha if adopted else None,
                "record": record,
                "prompt": folder.prompt(iteration, index),
                "diff": folder.diff(iteration, index),
                "candidate": folder.candidate(iteration, index),
            }
        )
    return rounds


def _diffstat(patch: Path) -> str:
    if not patch.exists():
        return "no diff"
    lines = patch.read_text().splitlines()
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return f"+{added} -{removed} lines"


def _asked_an_llm(rounds: list[dict]) -> bool:
    """Whether any proposal of the run came from a model (a prompt file, or a model named in its event)."""
    return any(r["event"].model or r["prompt"].exists() for r in rounds)


def _kind(r: dict) -> str:
    """'adopted', 'rejected' (correct, turned down by the rule), 'failed' (a stage failed) or 'not decided'."""
    if r["adopted"]:
        return "adopted"
    if r["outcome"] is None:
        return UNDECIDED
    return "failed" if _failed(r) else "rejected"


def _failed(r: dict) -> bool:
    """Failed at a stage: as the round decided it, or (not decided yet) as its record says."""
    if r["outcome"] is not None:
        return r["outcome"] == "failed"
    return r["record"] is not None and r["record"].status != "ok"


def _outcome(r: dict) -> str:
    """'adopted, commit abc1234567', 'rejected: within noise', 'failed: incorrect', 'not decided'."""
    kind = _kind(r)
    if kind == "adopted":
        return f"adopted, commit {r['commit'][:10]}"
    return kind if kind == UNDECIDED else f"{kind}: {r['rule']}"


def _cell(text: str) -> str:
    """Text for one cell of a Markdown table: one line, its pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|") or "-"


def _iteration_log(folder: RunFolder, config: dict, rounds: list[dict]) -> list[str]:
    """One row per proposal: what it tried, its result, the decision and its outcome."""
    policy = config["policy"]
    lines = [
        f"No LLM was asked in this run: the {policy} policy chose every edit (it walks the kernel file's "
        "`SEARCH_SPACE` and a catalogue of known designs), so there are no prompts. Below is the iteration "
        "log: what each iteration tried and what became of it.",
        "",
        "## Iteration log",
        "",
        "| iteration | date | what it tried | diff | result | outcome | decision |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rounds:
        cells = [
            r["label"],
            r["time"],
            r["event"].rationale,
            _diffstat(r["diff"]),
            _result(r["record"], r["decision"]),
            _outcome(r),
            r["decision"].reason if r["decision"] else UNDECIDED,
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    candidate = record_path(folder.iteration_path(0).with_name("NNNN") / folder.candidate(0).name)  # repo-relative
    lines += [
        "",
        "Each candidate is `iterations/NNNN/candidate.py` (`candidate-K.py` for the K-th of a round); "
        f"`agent eval {config['op']} --backend {config['backend']} --candidate {candidate}` evaluates one again.",
        "",
    ]
    return lines


def prompts_markdown(folder: RunFolder) -> str:
    config = folder.read_json(RUN_FILE)["config"]
    lines = [
        f"# Prompts: run {folder.run_id}",
        "",
        f"{config['op']}[{config['backend']}], policy `{config['policy']}`.",
        "",
    ]
    rounds = _rounds(folder)
    if rounds and not _asked_an_llm(rounds):
        return "\n".join(lines + _iteration_log(folder, config, rounds))
    lines += [_tokens_line(folder.read_json(RUN_FILE)), ""]
    reflections = {(e.iteration, e.index): e for e in folder.reflections()}
    for r in rounds:
        event, record = r["event"], r["record"]
        model = event.model or f"{config['policy']} policy (no LLM)"
        prompt_file = r["prompt"]
        asked = f"see {prompt_file.relative_to(folder.path).as_posix()}" if prompt_file.exists() else "no prompt"
        if event.reasks:
            asked += f"; re-asked {event.reasks} time(s)"
        patch = r["diff"]
        candidate = record_path(r["candidate"])  # repo-relative, not this machine's
        command = f"agent eval {config['op']} --backend {config['backend']} --candidate {candidate}"
        decision = r["decision"].reason if r["decision"] else "none"
        adopted = f"yes, commit {r['commit'][:10]}" if r["adopted"] else "no"
        title = f"## Iteration {r['iteration']}" + (f", candidate {r['index'] + 1}" if r["index"] else "")
        lines += [
            title,
            "",
            f"- Date: {r['time']}",
            f"- Model: {model}",
            f"- Tokens: {_count(event.usage)}",
            f"- Asked: {asked}",
            f"- What changed: {event.rationale} ({_diffstat(patch)})",
            f"- Test command: `{command}`",
            f"- Result: {_result(record, r['decision'])}",
            f"- Decision: {decision}",
            f"- Adopted: {adopted}",
            *_reflection_lines(folder, r, reflections.get((r["iteration"], r["index"]))),
            "",
        ]
    return "\n".join(lines)


def _count(usage: dict | None) -> str:
    """'1,234 prompt + 567 completion tokens', or '-' where the endpoint reported none."""
    if not usage:
        return "-"
    return f"{usage.get('prompt_tokens', 0):,} prompt + {usage.get('completion_tokens', 0):,} completion tokens"


def _tokens_line(run: dict) -> str:
    """The run's tokens and, where prices were given, their cost (run.json's `tokens`)."""
    tokens = run.get("tokens") or {}
    if not tokens.get("calls"):
        return "- Tokens: none reported"
    line = f"- Tokens: {_count(tokens)} in {tokens['calls']} calls"
    if tokens.get("cost") is not None:
        prices = f"{tokens.get('price_in') or 0:g} / {tokens.get('price_out') or 0:g}"
        line += f"; cost {tokens['cost']:.4f} at {prices} per million prompt / completion tokens"
    return line


def _reflection_lines(folder: RunFolder, r: dict, event) -> list[str]:
    """A proposal's reflection: the model that wrote it, its tokens, where its prompt and reply are, and its text."""
    if event is None:
        return []
    asked = folder.reflection_prompt(r["iteration"], r["index"])
    where = f"see {asked.relative_to(folder.path).as_posix()}" if asked.exists() else "no prompt saved"
    lines = [f"- Reflection: by {event.model or 'the policy'} ({_count(event.usage)}; {where})", ""]
    return lines + ["  > " + line if line.strip() else "  >" for line in event.text.strip().splitlines()]


def _num(value: float | None, spec: str, suffix: str = "") -> str:
    return f"{value:{spec}}{suffix}" if value else "-"


def _gbps(value: float | None) -> str:
    return _num(value, ".0f" if value and value >= 10 else ".3g")


def _pct(value: float | None) -> str:
    return f"{100 * value:.0f}%" if value else "-"


def _named(start_scope: str | None, best_scope: str | None) -> str:
    """'graph', or 'start eager, best graph' where the two summaries were judged in different scopes."""
    if start_scope == best_scope:
        return start_scope or "-"
    return f"start {start_scope or '-'}, best {best_scope or '-'}"


def _scope_of(summary: dict) -> str | None:
    return Summary.model_validate(summary).scope


def _shape_table(start: dict, best: dict) -> list[str]:
    """Per shape: both scopes' per-call times at the start and in the best version, then the decision scope's
    GB/s and % of copy and the speedup."""
    start_scope, best_scope = _scope_of(start), _scope_of(best)
    named = _named(start_scope, best_scope)
    shapes = start.get("shapes", {})
    times = [("eager_us", "eager"), ("graph_us", "graph")]
    titles = [f"{when} {scope} µs/call" for key, scope in times for when in ("start", "best")]
    titles += [f"start GB/s ({named})", f"best GB/s ({named})"]
    titles += [f"start % of copy ({named})", f"best % of copy ({named})", "best vs start"]
    lines = ["| shape | " + " | ".join(titles) + " |", "|---" * (len(titles) + 1) + "|"]
    for shape, before in shapes.items():
        before = before or {}
        after = best.get("shapes", {}).get(shape) or before
        cells = [_num(row.get(key), ".2f") for key, _ in times for row in (before, after)]
        cells += [_gbps(before.get("gbps")), _gbps(after.get("gbps"))]
        cells += [_pct(before.get("fraction_of_copy")), _pct(after.get("fraction_of_copy"))]
        # The speedup in one scope: the best's decision scope where both have it, else the other.
        keys = [f"{best_scope}_us"] if best_scope in ("eager", "graph") else []
        keys += [k for k in ("graph_us", "eager_us") if k not in keys]
        key = next((k for k in keys if before.get(k) and after.get(k)), None)
        cells.append(f"{before[key] / after[key]:.2f}x ({key.removesuffix('_us')})" if key else "-")
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
    return lines


def _confinement_line(record: EvalRecord | None) -> str:
    if record is None:
        return "- Runners: no evaluation record of the starting kernel"
    c = record.confinement
    if c is None:
        return "- Runners: no confinement recorded (not in eval.json)"
    dumpable = "yes" if c.judge_dumpable else "no"
    if c.mode in LEGACY_MODES:  # a record from before the sandbox: its fields, as exports of the time gave them
        text = (
            f"- Runners confined as `{c.mode}`: uid separation {'yes' if c.uid_separation else 'no'}, network "
            f"{c.network}, environment {c.env}, judge dumpable {dumpable}, transport {c.transport}"
        )
        return text + ("; " + "; ".join(c.notes) if c.notes else "")
    text = f"- Runners: {c.headline}; environment {c.env}, judge dumpable {dumpable}"
    if c.parts:
        text += " (" + "; ".join(c.parts) + ")"
    return text + ("; " + "; ".join(c.notes) if c.notes else "")


def _misled(rounds: list[dict]) -> list[str]:
    """The proposals not adopted, grouped by the rule that turned them down, most common first, with the
    iterations under each (what each tried and the full reason are in prompts.md and the reflections)."""
    misled = [r for r in rounds if not r["adopted"]]
    if not misled:
        return ["- Every proposal was adopted."]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in misled:
        groups.setdefault((r["rule"], _kind(r)), []).append(r)
    lines = [f"Not adopted: {len(misled)} of {len(rounds)} proposals, by the rule that turned them down:", ""]
    for (rule, kind), members in sorted(groups.items(), key=lambda item: -len(item[1])):
        which = ", ".join(r["label"] for r in members)
        count = f"{len(members)}" if kind == UNDECIDED else f"{len(members)} {kind}"
        lines.append(f"- {rule}: {count} ({'iteration' if len(members) == 1 else 'iterations'} {which})")
    return lines


def _reflections(folder: RunFolder, rounds: list[dict], policy: str) -> list[str]:
    """What each step taught: the reflections the run wrote (iterations/NNNN/reflection.md), as it wrote them;
    a search run that wrote none gets them recomputed from its decisions (tools/lessons.py), a line a step."""
    lines = []
    for iteration in folder.iterations():
        path = folder.reflection(iteration)
        text = path.read_text().strip() if path.exists() else ""
        if text:
            lines += [f"### Iteration {iteration}", "", text, ""]
    if lines or policy != "search":
        return lines[:-1] or ["- No reflection was written."]
    lines = [
        f"- Iteration {r['label']}: {text}" for r in rounds if (text := lesson(r["event"].rationale, r["decision"]))
    ]
    return lines or ["- No step taught anything the decisions above do not say."]


def reflection_markdown(folder: RunFolder) -> str:
    run = folder.read_json(RUN_FILE)
    config, env = run["config"], run.get("environment", {})
    rounds = _rounds(folder)
    outcomes = Counter("accepted" if r["adopted"] else ("failed" if _failed(r) else "rejected") for r in rounds)
    failed_stages = Counter(r["record"].failed_stage for r in rounds if r["record"] and r["record"].failed_stage)
    start, best = run.get("start", {}), run.get("best", {})
    evaluation = config.get("evaluation") or config  # run folders before the options model keep them flat
    shapes = evaluation["shapes"] or "all named"
    branch = run.get("branch") or run.get("workspace", {}).get("branch")
    lines = [
        f"# Reflection: run {folder.run_id}",
        "",
        "## Operator and environment",
        "",
        f"- {config['op']}[{config['backend']}], dtypes {', '.join(evaluation['dtypes'])}, shapes {shapes}",
        f"- Device {env.get('device') or 'CPU'}, driver {env.get('driver') or '-'}, target {env.get('target')}; "
        + ", ".join(f"{k} {v}" for k, v in env.get("versions", {}).items()),
        _confinement_line(folder.read_record(0)),
        "",
        "## How the agent worked",
        "",
        f"- Policy `{config['policy']}`"
        + (f", model {config['model']}" if config.get("model") else "")
        + f"; {run.get('iterations', 0)} iterations, {len(rounds)} proposals: "
        + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())),
        f"- Failures by stage: {dict(failed_stages) or 'none'}",
        *([_tokens_line(run)] if (run.get("tokens") or {}).get("calls") else []),  # none for a run that asked no model
        f"- Ended: {run.get('stop_reason') or run.get('status')}",
        f"- Git: branch `{branch}`, {len(run.get('commits', []))} commit(s)",
        "",
        "## What helped",
        "",
    ]
    helped = [r for r in rounds if r["adopted"]]
    lines += [f"- Iteration {r['iteration']}: {r['event'].rationale} ({r['decision'].reason})" for r in helped] or [
        "- Nothing beat the starting kernel."
    ]
    lines += ["", "## What misled it", "", *_misled(rounds)]
    lines += ["", "## Reflections", "", *_reflections(folder, rounds, config["policy"]), ""]
    lines += ["## Measured results", ""]
    if start and best:
        start_scope, best_scope = _scope_of(start), _scope_of(best)
        if start_scope == best_scope:
            where = f"{_label(best_scope)} scope: {_rate(start.get('median_gbps'))} at the start"
        else:
            where = f"{_rate(start.get('median_gbps'))} at the start ({_label(start_scope)} scope)"
        best_at = "" if start_scope == best_scope else f" ({_label(best_scope)} scope)"
        lines += [
            f"Median shape, {where}, {_rate(best.get('median_gbps'))} best{best_at} "
            f"(iteration {best.get('iteration', 0)}).",
            "",
            *_shape_table(start, best),
            "",
            "µs/call: the judge's median per call, eager (host launch cost included) and graph (CUDA-graph "
            "replay: device time); GB/s and % of copy are of the decision scope named in the titles.",
        ]
    else:
        lines.append("No measurements: the starting kernel did not evaluate.")
    lines += [
        "",
        "## Review checklist",
        "",
        "- [ ] Read the diff of every adopted commit on the branch (`git log -p` on it).",
        "- [ ] Re-run `agent eval` on the best version on a fresh process and compare with the numbers above.",
        "- [ ] Check the hidden-shape and random-shape results in the best version's eval.json.",
        "- [ ] Confirm no adopted version is slower on a shape that matters to you (per-shape table).",
        "- [ ] `agent adopt " + folder.run_id + "` only after the above.",
        "",
    ]
    return "\n".join(lines)


def default_out(folder: RunFolder) -> Path:
    """Where export writes unless told: the run folder, where it is one of the user's runs; for a run inside
    the checkout but outside runs/ (the committed examples), runs/exports/RUN_ID, so the clone stays clean."""
    path = folder.path.resolve()
    if path.is_relative_to(PROJECT_ROOT.resolve()) and not path.is_relative_to(RUNS_DIR.resolve()):
        return RUNS_DIR / "exports" / folder.run_id
    return folder.path


def export(folder: RunFolder, out_dir: Path | None = None) -> tuple[Path, Path]:
    out = Path(out_dir) if out_dir else default_out(folder)
    out.mkdir(parents=True, exist_ok=True)
    prompts = out / "prompts.md"
    reflection = out / "reflection.md"
    prompts.write_text(prompts_markdown(folder))
    reflection.write_text(reflection_markdown(folder))
    return prompts, reflection
