"""Iteration page: one candidate's diff against the version it tried to beat, prompt and reply,
correctness errors, timings in each scope, generated kernel source, profile, reflection, the environment
and confinement it was evaluated in, and its commit if accepted."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui import common, data

run_id = st.query_params.get("run", "")
iteration = common.query_int("iteration")
index = max(1, common.query_int("candidate", 1) or 1) - 1
run = common.load_run(run_id)
if run is None or iteration is None:
    common.sidebar(run)
    st.warning(f"No run `{run_id}` under `{common.runs_dir()}`." if run is None else "No iteration in the address.")
    st.page_link(common.RUNS_PAGE, label="← All runs")
    st.stop()
common.sidebar(run, iteration)
detail = data.iteration_detail(run.path, iteration, index, rows=run.rows)
if detail is None:
    st.warning(f"Run `{run_id}` has no iteration {iteration}" + (f", candidate {index + 1}" if index else "") + ".")
    st.page_link(common.RUN_PAGE, label="← Back to the run", query_params={"run": run_id})
    st.stop()
row, record = detail.row, detail.record


def _params(target: data.IterationRow) -> dict[str, str]:
    params = {"run": run_id, "iteration": str(target.iteration)}
    if target.index:
        params["candidate"] = str(target.index + 1)
    return params


# ------------------------------------------------------------------------------------------ header
position = run.rows.index(row)
links = st.columns([3, 2, 2, 3])
links[0].page_link(common.RUN_PAGE, label=f"← Run {run.title}", query_params={"run": run_id})
if position > 0:
    before = run.rows[position - 1]
    links[1].page_link(common.ITERATION_PAGE, label=f"◀ iteration {before.label}", query_params=_params(before))
if position + 1 < len(run.rows):
    after = run.rows[position + 1]
    links[2].page_link(common.ITERATION_PAGE, label=f"iteration {after.label} ▶", query_params=_params(after))
with links[3]:
    common.refresh_button("refresh_iteration")

st.title(f"Iteration {row.label}" + (" · starting kernel" if row.iteration == 0 else ""))
st.caption(
    f"run `{run_id}` · {run.title}"
    + (f" · candidate {row.index + 1} of {detail.candidates}" if detail.candidates > 1 else "")
    + (f" · model {row.model}" if row.model else "")
    + (f" · {common.when(row.time)}" if row.time else "")
)
if detail.candidates > 1:
    siblings = [r for r in run.rows if r.iteration == row.iteration]
    for column, sibling in zip(st.columns(len(siblings)), siblings, strict=True):
        column.page_link(
            common.ITERATION_PAGE,
            label=f"candidate {sibling.index + 1}: {sibling.outcome}",
            query_params=_params(sibling),
            disabled=sibling.index == row.index,
        )

if row.iteration:
    st.markdown(f"**Change:** {row.rationale or '-'}")
verdict = {
    "accepted": st.success,
    "rejected": st.warning,
    "failed": st.error,
    "baseline": st.info,
}.get(row.outcome, st.info)
if row.outcome == "failed":
    stage = record.stage(row.failed_stage) if record and row.failed_stage else None
    verdict(f"**Failed at {row.failed_stage or 'an early stage'}.** {stage.message if stage else row.reason}")
elif row.outcome == "baseline":
    verdict(f"**The starting kernel**, against which the first proposal was timed. {row.reason}")
elif row.outcome == "rejected" and row.rule:
    verdict(f"**Rejected: {row.rule}.** {row.reason}")  # the rule its recorded decision names
else:
    verdict(f"**{row.outcome.capitalize()}.** {row.reason}")

if detail.commit_sha:
    st.markdown(f"**Commit** `{detail.commit_sha}` on branch `{run.info.branch or '-'}`")
    st.code(detail.commit_message or "(message not found: the run's git worktree is not here)", language="text")


def _named(title: str) -> str:
    return f"{title} ({row.scope})" if row.scope else title


scope_help = f"{data.scope_label(row.scope)} scope: {data.SCOPE_HELP[row.scope]}" if row.scope else None
columns = st.columns(4)
columns[0].metric(_named("median GB/s"), common.number(row.median_gbps, ".4g"), help=scope_help)
columns[1].metric(
    _named("% of copy"), common.number(100 * (row.median_fraction_of_copy or 0) or None, ".0f", "%"), help=scope_help
)
columns[2].metric(_named("vs best of its time"), common.number(row.geomean_vs_best, ".2f", "x"), help=scope_help)
columns[3].metric(_named("vs start"), common.number(row.geomean_vs_start, ".2f", "x"), help=scope_help)
if row.geomean_vs_best and row.geomean_vs_start and row.outcome != "baseline":
    earlier = [r for r in run.rows if r.outcome == "accepted" and r.iteration < row.iteration]
    best = f"iteration {earlier[-1].iteration}" if earlier else "the starting kernel"
    st.caption(
        f":material/balance: vs best of its time (here {best}) decides: the judge timed the two in the same rounds, "
        "moments apart, so the machine's drift cancels. vs start is a ratio of two evaluations made at different "
        "times, so it carries that drift"
        + (", which is why it can differ from vs best though the best is the start." if not earlier else ".")
    )
if row.partial:
    st.caption(
        f":material/warning: Stopped early: timed on {row.shapes_timed} of {row.shapes_planned} shapes (the judge "
        "stops at the first shape slower than the best beyond noise). These figures are of those shapes only, so "
        "they do not compare with a whole evaluation's; vs best of its time is what the rule weighed."
    )

if record is not None and record.stages:
    st.dataframe(
        pd.DataFrame(data.stage_table(record)),
        hide_index=True,
        placeholder="-",
        width="stretch",
        row_height=common.WRAPPING_ROW_HEIGHT,  # a stage's message read whole, not cut at the page's edge
        column_config={
            "stage": st.column_config.TextColumn(width=90),
            "status": st.column_config.TextColumn(width=70),
            "seconds": st.column_config.NumberColumn(format="%.2f", width=70),
            "message": st.column_config.TextColumn(width=700),
        },
    )
elif record is None:
    st.info("No evaluation record yet: this candidate is still being evaluated (or the run was stopped here).")

# ------------------------------------------------------------------------------------------ tabs
tabs = st.tabs(
    ["Diff", "Prompt and reply", "Correctness", "Timings", "Kernel source", "Profile", "Reflection", "Environment"]
)

with tabs[0]:
    if detail.diff:
        st.caption("Against the version it tried to beat (the previous accepted one).")
        # Wrapped: a CONFIG dict is one long line, and a cut-off diff hides the change itself.
        st.code(detail.diff, language="diff", wrap_lines=True)
    elif row.iteration == 0:
        st.caption("The starting kernel: nothing to diff against. Its source:")
        st.code(detail.source or "", language="python", line_numbers=True, wrap_lines=True)
    else:
        st.caption("No diff.patch in this iteration.")
    if detail.source and row.iteration:
        with st.expander("Whole candidate file"):
            st.code(detail.source, language="python", line_numbers=True, wrap_lines=True)

with tabs[1]:
    if detail.prompt is None and detail.response is None:
        st.caption(
            f"No prompt or reply: the {run.config.get('policy', '?')} policy proposes edits without an LLM."
            if row.iteration
            else "The starting kernel was not proposed by anyone."
        )
    for title, text in (("Prompt", detail.prompt), ("Reply", detail.response)):
        if text is not None:
            st.markdown(f"**{title}**")
            st.code(text, language="markdown", wrap_lines=True, height=420)

with tabs[2]:
    if record is None or not record.correctness:
        stage = record.failed_stage if record else None
        st.caption(f"No correctness checks: it stopped at {stage}." if stage else "No correctness checks recorded.")
    else:
        checks = data.correctness_table(record)
        failing = [c for c in checks if not c["ok"]]
        shapes = len({(c["shape"], c["dtype"]) for c in checks})
        if failing:
            bad = list(dict.fromkeys((c["shape"], c["dtype"]) for c in failing))
            st.error(f"{len(failing)} of {len(checks)} checks failed, on {len(bad)} of {shapes} (shape, dtype).")
            for shape, dtype in bad:
                first = next(c for c in failing if (c["shape"], c["dtype"]) == (shape, dtype))
                st.markdown(f"- `{shape}` {dtype}: {first['message']}")
        else:
            st.success(f"All {len(checks)} checks passed ({shapes} shapes x dtypes, hidden shapes included).")
        frame = pd.DataFrame(checks)

        def _highlight(line: pd.Series) -> list[str]:
            return ["background-color: rgba(220, 38, 38, 0.15)" if not line["ok"] else "" for _ in line]

        st.dataframe(
            frame.style.apply(_highlight, axis=1).format({"max abs err": "{:.2e}", "max rel err": "{:.2e}"}),
            hide_index=True,
            placeholder="-",
            width="stretch",
            column_config={"message": st.column_config.TextColumn(width="large")},
        )

with tabs[3]:
    if record is None or not record.benchmark:
        stage = record.failed_stage if record else None
        st.caption(f"Not timed: it stopped at {stage}." if stage else "Not timed.")
    else:
        decision = record.decision_scope()
        shapes = pd.DataFrame(data.best_shape_table(record, run.start))
        st.caption(
            "Per shape: µs per call in each scope, ± half its 95% interval, and what bounds the call (host where "
            "the eager call costs over 1.5x its graph replay); GB/s, % of copy and speedups are of the "
            f"{data.scope_label(decision)} scope, the one decisions use."
        )
        st.dataframe(
            shapes,
            column_order=common.shown_columns(shapes) or None,
            hide_index=True,
            placeholder="-",
            width="stretch",
            column_config=common.shape_table_columns(shapes.columns),
        )
        for scope in data.timing_scopes(record):
            st.markdown(
                f"**{data.scope_label(scope)} scope**"
                + (" · decides" if scope == decision else "")
                + f": {data.SCOPE_HELP[scope]}"
            )
            st.caption(
                "Microseconds per call, the median over batches, ± its 95% interval; every contestant "
                "timed in the same rounds: `best` is the version it tried to beat, torch the reference op, copy "
                "a device-to-device copy of the same bytes. vs: median of per-round ratios, low/high its "
                "interval (in eval.json, with the batches, calls per batch and the runner's own clock). errors: "
                "why a contestant has no timing in this scope."
            )
            timings = pd.DataFrame(data.timing_table(record, scope))
            kept, config = common.timing_columns(timings.columns)
            hidden = [c for c in timings.columns if c not in kept]
            st.dataframe(
                timings,
                column_order=common.shown_columns(timings, hide=hidden) or None,  # a contestant not timed: none
                hide_index=True,
                placeholder="-",
                width="stretch",
                key=f"timings_{scope}",
                column_config=config,
            )

with tabs[4]:
    if detail.generated:
        st.caption(f"{len(detail.generated)} generated kernel(s), as the backend compiled them.")
        for i, source in enumerate(detail.generated):
            with st.expander(f"{source.key} ({source.language})", expanded=i == 0):
                st.code(source.text, language="cpp" if source.language == "cuda" else "python", line_numbers=True)
    else:
        st.caption(
            "No generated source: TileLang keeps its CUDA, NineToothed its Triton; a torch kernel has none."
            if record is not None
            else "No evaluation record yet."
        )

with tabs[5]:
    if detail.profile:
        st.code(detail.profile, language="text")
    if record is not None and record.profile:
        st.dataframe(
            pd.DataFrame([p.model_dump(exclude={"raw"}) for p in record.profile]), hide_index=True, width="stretch"
        )
    if not detail.profile and not (record and record.profile):
        st.caption(
            "Not profiled: the loop profiles each new best where ncu is on PATH (`--profile-best`), and "
            "`agent optimize --profile` runs ncu on every version."
        )

with tabs[6]:
    if detail.reflection and detail.reflection.strip():
        st.markdown(detail.reflection)
    elif detail.reflection is not None:
        st.caption("Nothing to reflect on: this step taught nothing its decision above does not say.")
    else:
        st.caption("No reflection yet.")
    if detail.reflection_model:
        st.caption(f"Written by {detail.reflection_model}.")
    exchange = (("Reflection prompt", detail.reflection_prompt), ("Reflection reply", detail.reflection_response))
    for title, text in exchange:
        if text is not None:
            with st.expander(title):
                st.code(text, language="markdown", wrap_lines=True, height=420)

with tabs[7]:
    if record is None:
        st.caption("No evaluation record yet.")
    else:
        left, right = st.columns(2)
        with left:
            st.markdown("**Environment** (this evaluation)")
            environment = data.record_environment_rows(record)
            if environment:
                st.table(pd.DataFrame(environment).set_index("item"))
            else:
                st.caption("No environment in this eval.json.")
        with right:
            st.markdown("**Confinement** of the runners that imported candidate code")
            confinement = data.confinement_rows(record)
            if confinement:
                st.table(pd.DataFrame(confinement).set_index("item"))
            else:
                st.caption(data.confinement_caption(record))
        st.caption(
            f"Evaluator and specs hash `{record.harness_sha256[:16]}`; candidate `{record.candidate_sha256[:16]}`."
        )
