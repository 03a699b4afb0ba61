"""Runs page: one row per run, newest first, filtered by op, backend and status."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui import common, data

root = common.runs_dir()
common.sidebar()

head, button = st.columns([6, 1], vertical_alignment="bottom")
head.title("Runs")
with button:
    common.refresh_button("refresh_runs")

rows = data.run_rows(root)
if not rows:
    st.info(
        f"No runs under `{root}` yet. Start one on a GPU host with "
        "`agent optimize rope --backend tilelang`, or point the UI elsewhere with `agent ui --runs-dir DIR`."
    )
    st.stop()

filters = st.columns(3)
chosen = {}
for column, (name, label) in zip(
    filters, (("op", "Operator"), ("backend", "Backend"), ("status", "Status")), strict=True
):
    options = sorted({getattr(r, name) or "-" for r in rows})
    chosen[name] = column.multiselect(label, options, placeholder="all", key=f"filter_{name}")
shown = [r for r in rows if all(not picked or (getattr(r, k) or "-") in picked for k, picked in chosen.items())]

table = pd.DataFrame(
    [
        {
            "run": r.run_id,
            "op": r.op or "-",
            "backend": r.backend or "-",
            "policy": r.policy or "-",
            "model": r.model or "-",
            "started": common.when(r.started),
            "iterations": r.iterations,
            "accepted": r.accepted,
            "best speedup": r.best_speedup,
            "best % of copy": 100 * r.best_fraction_of_copy if r.best_fraction_of_copy else None,
            "scope": data.scope_label(r.scope) if r.scope else None,
            "status": r.status,
        }
        for r in shown
    ],
    # The run id and its status first, the start time and model last (op, backend and start are shown in the
    # run id, the model only where a run asked one).
    columns=[
        "run",
        "status",
        "op",
        "backend",
        "policy",
        "iterations",
        "accepted",
        "best speedup",
        "best % of copy",
        "scope",
        "started",
        "model",
    ],
)
st.caption(
    f"{len(shown)} of {len(rows)} runs. Best speedup: the best version over the starting kernel (geomean over "
    "shapes); % of copy: its median shape against a device-to-device copy of the same bytes; both in the "
    "timing scope named (graph: CUDA-graph replay; eager: per call with the host launch cost). Select a row "
    "to open it."
)
run_width = 16 + 8 * max((len(r.run_id) for r in shown), default=10)  # px: the whole id, never cut
picked = st.dataframe(
    table,
    # At 1400 px: the run id already holds its start (UTC), op and backend; no model column for search runs.
    column_order=common.shown_columns(table, hide=["op", "backend", "started"]) or None,
    hide_index=True,
    placeholder="-",
    width="stretch",
    on_select="rerun",
    selection_mode="single-row",
    key="runs_table",
    column_config={
        "run": st.column_config.TextColumn("run", width=run_width),
        "status": st.column_config.TextColumn("status", width=75),
        "policy": st.column_config.TextColumn("policy", width=65),
        "iterations": st.column_config.NumberColumn("iterations", width=75),
        "accepted": st.column_config.NumberColumn("accepted", width=70),
        "best speedup": st.column_config.NumberColumn("best speedup", format="%.2fx", width=100),
        "best % of copy": st.column_config.NumberColumn("best % of copy", format="%.0f%%", width=110),
        "scope": st.column_config.TextColumn("scope", width=60, help="the timing scope of the best version's figures"),
    },
)
if picked and picked.selection.rows:
    st.switch_page(common.RUN_PAGE, query_params={"run": table.iloc[picked.selection.rows[0]]["run"]})

choice = st.selectbox(
    "Open a run",
    [r.run_id for r in shown],
    index=None,
    placeholder="type or pick a run id",
    format_func=lambda run_id: next(
        f"{r.run_id}  ·  {r.op}[{r.backend}]  ·  {r.status}" for r in shown if r.run_id == run_id
    ),
    key="open_run",
)
if choice:
    st.switch_page(common.RUN_PAGE, query_params={"run": choice})
