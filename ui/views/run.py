"""Run page: speed per iteration against the baselines, the iterations, the best version per shape,
downloads (prompts.md, reflection.md, results CSV) and the environment it was measured in.

Every speed names its timing scope (graph or eager)."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from ui import charts, common, data

run_id = st.query_params.get("run", "")
run = common.load_run(run_id)
if run is None:
    common.sidebar()
    st.warning(f"No run `{run_id}` under `{common.runs_dir()}`.")
    st.page_link(common.RUNS_PAGE, label="← All runs")
    st.stop()
common.sidebar(run)
summary, config = run.summary, run.config

# ------------------------------------------------------------------------------------------ header
head, button = st.columns([6, 1], vertical_alignment="bottom")
with head:
    st.page_link(common.RUNS_PAGE, label="← All runs")
    st.title(f"{run.title} · {config.get('policy') or summary.policy or '?'} policy")
    st.caption(f"run `{run_id}` · started {common.when(summary.started)}")
with button:
    common.refresh_button("refresh_run")
common.status_badge(summary.status)
if summary.status == "running":
    last = run.events[-1] if run.events else {}
    st.info(
        f"In progress, or killed without finishing: the last event is `{last.get('event', 'none')}` at "
        f"{common.when(last.get('time'))}. Refresh to see new iterations; `agent resume {run_id}` continues a "
        "killed run."
    )
elif summary.status == "failed":
    st.error(f"Failed: {summary.stop_reason or 'no reason recorded'}")
elif summary.stop_reason:
    st.caption(f"Stopped because: {summary.stop_reason}")
tokens = data.tokens_text(run.info)
if tokens:
    st.caption(tokens)

start_gbps = data.median_gbps(run.start)
start_scope = run.start.decision_scope() if run.start else None


def _named(title: str, scope: str | None) -> str:
    return f"{title} ({scope})" if scope else title


columns = st.columns(5)
columns[0].metric("iterations", summary.iterations)
columns[1].metric("accepted", summary.accepted)
columns[2].metric(
    _named("start GB/s", start_scope),
    common.number(start_gbps, ".4g"),
    help=f"median shape of the starting kernel, {data.scope_label(start_scope)} scope",
)
columns[3].metric(
    _named("best GB/s", summary.scope),
    common.number(summary.best_gbps, ".4g"),
    help=f"median shape of the best version, {data.scope_label(summary.scope)} scope",
    delta=f"{summary.best_speedup:.2f}x vs start ({summary.speedup_scope})" if summary.best_speedup else None,
    delta_color="off" if not summary.best_speedup or summary.best_speedup == 1 else "normal",
)
columns[4].metric(
    _named("best % of copy", summary.scope),
    common.number(100 * (summary.best_fraction_of_copy or 0) or None, ".0f", "%"),
)

# ------------------------------------------------------------------------------------------ chart
scopes = data.chart_scopes(run.rows)
decision_scope = data.run_scope(run.rows, run.start)
controls = st.columns([3, 2])
with controls[0]:
    metric = st.segmented_control(
        "y axis",
        list(charts.METRICS),
        default="vs_best",
        format_func=charts.METRIC_BUTTONS.get,
        key="metric",
        label_visibility="collapsed",
        help="vs the best: what the acceptance rule weighed, on the shapes each candidate was timed on; median "
        "GB/s and speedup over the start: over the run's whole set of shapes",
    )
scope = decision_scope if decision_scope in scopes or not scopes else scopes[0]
if len(scopes) > 1:
    with controls[1]:
        scope = (
            st.segmented_control(
                "scope",
                scopes,
                default=scope,
                format_func=lambda s: f"{s} scope" + (" (decides)" if s == decision_scope else ""),
                key="scope",
                label_visibility="collapsed",
                help="graph: CUDA-graph replay (device time); eager: per call with the host launch cost",
            )
            or scope
        )
metric = metric or "vs_best"
st.subheader(f"Speed per iteration, {data.scope_label(scope)} scope" if scope else "Speed per iteration")
levels = data.baseline_levels(run.start, metric, scope) if metric != "vs_best" else {}
if run.rows:
    event = st.altair_chart(
        charts.speed_chart(run.rows, levels, metric, scope=scope), on_select="rerun", key="speed_chart"
    )
    frame = charts.chart_frame(run.rows, metric, scope, ceiling=levels.get(charts.COPY_LEVEL))
    st.caption(charts.chart_caption(levels, scope, metric, frame))
    picked = [p for selection in (event.selection or {}).values() for p in selection] if event else []
    if picked:
        params = {"run": run_id, "iteration": str(int(picked[0]["iteration"]))}
        if int(picked[0].get("candidate", 1)) > 1:
            params["candidate"] = str(int(picked[0]["candidate"]))
        st.switch_page(common.ITERATION_PAGE, query_params=params)
else:
    st.info("No iteration has been written yet.")

# ------------------------------------------------------------------------------------------ iterations
shared = data.common_scope(run.rows)
st.subheader(f"Iterations, {data.scope_label(shared)} scope" if shared else "Iterations")
table = pd.DataFrame(data.iteration_table(run.rows))
if table.empty:
    table = pd.DataFrame(columns=["iteration", "outcome", "scope", "change", "decision"])
# What decided each candidate and what it tried, at 1400 px: the outcome and its rule as one verdict; the full
# decision is in the chart's tooltip and on its page, vs torch in the CSV, and the scope in the titles unless
# the candidates' scopes differ.
hidden = ["outcome", "rule", "decision", *(c for c in table.columns if c.startswith("vs torch"))]
hidden += ["scope"] if data.common_scope(run.rows) else []
# Titles without the scope the subheader names (or the scope column, where candidates' differ), each column as
# wide as its title: at 1440 px "median GB/s (graph)" was cut to "median GB/s (gra".
labels = {c: c.split(" (")[0] for c in table.columns}
number = {
    c: st.column_config.NumberColumn(labels[c], width=common.title_width(labels[c], 60), format=f)
    for c, f in data.number_formats(table.columns).items()
}
tried_px = 250
# Every "what it tried" whole: rows as tall as the longest needs (about 6.5 px a character, 22 px a line).
tried_lines = max([3, *(math.ceil(6.5 * len(str(t)) / (tried_px - 20)) + 1 for t in table.get("what it tried", []))])
selected = st.dataframe(
    table,
    column_order=common.shown_columns(table, hide=hidden) or None,
    hide_index=True,
    placeholder="-",
    width="stretch",
    # Rows taller than 4rem let the text columns wrap: what it tried and the decision are read whole.
    row_height=max(common.WRAPPING_ROW_HEIGHT, 22 * tried_lines),
    height="content" if len(table) <= 20 else "auto",  # every iteration of a short run, no inner scrolling
    on_select="rerun",
    selection_mode="single-row",
    key="iterations_table",
    column_config=number
    | {
        "iteration": st.column_config.TextColumn(width=common.title_width("iteration")),
        "verdict": st.column_config.TextColumn(width=145),
        "scope": st.column_config.TextColumn(width=60, help="the decision scope of its evaluation: graph, else eager"),
        "what it tried": st.column_config.TextColumn(width=tried_px),
        "shapes timed": st.column_config.TextColumn(
            width=common.title_width("shapes timed"), help="partial: stopped early"
        ),
    },
)
st.caption(
    "vs best is what decided each candidate, by the rule its verdict names: the geomean, over the shapes it was "
    "timed on, of the judge's per-round ratios against the best of its time. A candidate stopped early (shapes "
    "timed: partial) has only that figure; the others are over the run's whole set of shapes: median GB/s and % "
    "of copy, and vs start (the starting kernel's evaluation), in each candidate's decision scope. vs start is a "
    "ratio of two evaluations made at different times, so it can differ from vs best even while the best is the "
    "start: vs best, timed in the same rounds as the best, is the one that decides. The decision's "
    "words are in the chart's tooltip and on the iteration's page; results.csv below has every figure."
)


def _open(row: data.IterationRow) -> None:
    params = {"run": run_id, "iteration": str(row.iteration)}
    if row.index:
        params["candidate"] = str(row.index + 1)
    st.switch_page(common.ITERATION_PAGE, query_params=params)


if selected and selected.selection.rows:
    _open(run.rows[selected.selection.rows[0]])
choice = st.selectbox(
    "Open an iteration",
    range(len(run.rows)),
    index=None,
    placeholder="pick an iteration",
    format_func=lambda i: f"{run.rows[i].label} · {run.rows[i].outcome} · {common.short(run.rows[i].rationale, 80)}",
    key="open_iteration",
)
if choice is not None:
    _open(run.rows[choice])

# ------------------------------------------------------------------------------------------ best version
best = run.best
st.subheader("Best version" + (f": iteration {best.label}" if best else ""))
if best is None or run.best_record is None:
    st.info("No version has been measured yet.")
else:
    params = {"run": run_id, "iteration": str(best.iteration)} | (
        {"candidate": str(best.index + 1)} if best.index else {}
    )
    note = "the starting kernel" if best.iteration == 0 else f"commit {(best.commit or '')[:10]}"
    st.page_link(common.ITERATION_PAGE, label=f"Open iteration {best.label} ({note})", query_params=params)
    shapes = pd.DataFrame(data.best_shape_table(run.best_record, run.start))
    st.dataframe(
        shapes,
        # At 1440 px: the copy's own GB/s is in % of copy, and on the iteration's page.
        column_order=common.shown_columns(shapes, hide=[c for c in shapes.columns if c.startswith("copy GB/s")])
        or None,
        height="content" if len(shapes) <= 40 else "auto",
        hide_index=True,
        placeholder="-",
        width="stretch",
        column_config=common.shape_table_columns(shapes.columns),
    )
    best_scope = run.best_record.decision_scope()
    st.caption(
        "µs/call: the judge's median per call in each scope (eager: host launch cost included; graph: "
        "CUDA-graph replay, device time), ± half its 95% interval; bound: host where the eager call costs "
        f"over 1.5x its graph replay. GB/s, % of copy and speedups are of the {data.scope_label(best_scope)} "
        "scope, the one decisions use."
    )

# ------------------------------------------------------------------------------------------ downloads
st.subheader("Downloads")
files = common.exports(str(run.path), data.run_stamp(run.path))
buttons = st.columns(3)
mimes = {"prompts.md": "text/markdown", "reflection.md": "text/markdown", "results.csv": "text/csv"}
helps = {
    "prompts.md": "one section per proposal: model, what was asked, what changed, result, adopted (agent export)",
    "reflection.md": "operator, environment, what helped and misled the agent, results, review checklist",
    "results.csv": "one row per iteration x candidate x shape x scope: errors, timings, GB/s, speedups",
}
for column, (name, text) in zip(buttons, files.items(), strict=True):
    column.download_button(
        f"⬇ {name}",
        text or "",
        file_name=f"{run_id}-{name}" if name == "results.csv" else name,
        mime=mimes[name],
        disabled=text is None,
        help=helps[name] if text is not None else "run.json is not complete enough yet",
        key=f"download_{name}",
        on_click="ignore",
    )

# ------------------------------------------------------------------------------------------ environment
st.subheader("Environment and configuration")
left, right = st.columns(2)
with left:
    environment = data.environment_rows(run.info)
    if environment:
        st.table(pd.DataFrame(environment).set_index("item"))
    else:
        st.caption("run.json has no environment yet.")
with right:
    workspace = run.info.workspace or {}
    evaluation = config.get("evaluation") or config  # run folders before the options model keep them flat
    settings = {
        "shapes": ", ".join(evaluation.get("shapes") or []) or "all named shapes",
        "dtypes": ", ".join(evaluation.get("dtypes") or []),
        "baselines": ", ".join(evaluation.get("baselines") or []),
        "device / target": f"{evaluation.get('device', '-')} / {evaluation.get('target', '-')}",
        "iterations asked": config.get("iterations", "-"),
        "candidates per iteration": config.get("candidates", "-"),
        "model": config.get("model") or "-",
        "kernel file": run.info.kernel_file or "-",
        "git branch": run.info.branch or workspace.get("branch", "-"),
        "commits": len(run.info.commits) or summary.accepted,
    }
    # st.table renders its cells as Markdown, where a lone "-" is an empty list item (a bullet): show a dash.
    values = ["—" if str(v).strip() in ("", "-") else str(v) for v in settings.values()]
    st.table(pd.DataFrame({"setting": list(settings), "value": values}).set_index("setting"))
smi = run.info.environment.get("smi")
if smi:
    with st.expander("nvidia-smi / mx-smi output"):
        st.code(smi, language="text")
