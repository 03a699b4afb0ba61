"""What the pages share: where the runs are, cached loading, links between pages, number formats."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import streamlit as st

from tools.runfolder import RUNS_DIR
from ui import data

# Page scripts, relative to ui/app.py (st.page_link and st.switch_page take them so).
RUNS_PAGE = "views/runs.py"
RUN_PAGE = "views/run.py"
ITERATION_PAGE = "views/iteration.py"

# Material icons ship with Streamlit's own font, so they show where no emoji font is installed.
OUTCOME_ICON = {
    "baseline": ":material/flag:",
    "accepted": ":material/check_circle:",
    "rejected": ":material/remove:",
    "failed": ":material/cancel:",
    "evaluating": ":material/hourglass_top:",
    "proposed": ":material/hourglass_empty:",
}


def runs_dir() -> Path:
    """The folder of runs: `-- --runs DIR` from `agent ui`, else $AGENT_RUNS_DIR, else runs/ of the project.

    Kept in the session state, so a test (AppTest) can set it before the first run.
    """
    if "runs_dir" not in st.session_state:
        parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
        parser.add_argument("--runs")
        args, _ = parser.parse_known_args(sys.argv[1:])
        st.session_state["runs_dir"] = args.runs or os.environ.get("AGENT_RUNS_DIR") or str(RUNS_DIR)
    return Path(st.session_state["runs_dir"])


@st.cache_resource(max_entries=16, show_spinner=False)
def _load_run(path: str, stamp: int) -> data.RunData:
    # cache_resource hands back the object itself (no copy); pages only read it. `stamp` keys the
    # cache on the folder's last write, so a run in progress is re-read when it changes.
    return data.load_run(Path(path))


def load_run(run_id: str) -> data.RunData | None:
    """The run `run_id` under runs_dir(), or None when there is no such folder."""
    path = runs_dir() / run_id
    if not run_id or "/" in run_id or run_id.startswith(".") or not path.is_dir():
        return None
    return _load_run(str(path), data.run_stamp(path))


def shown_path(path: Path) -> str:
    """`path` relative to the working directory where it is inside it (examples/runs), else as it is: the page
    (and a screenshot of it) names no more of the machine than it needs to."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(path)


def query_int(name: str, default: int | None = None) -> int | None:
    value = st.query_params.get(name)
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def refresh_button(key: str) -> None:
    """Re-read the folder now (a run in progress keeps writing to it)."""
    if st.button("↻ Refresh", key=key, help="re-read the run folders; a run in progress keeps adding to them"):
        st.rerun()


def sidebar(current: data.RunData | None = None, iteration: int | None = None) -> None:
    """Links to the runs, the open run and its iterations, so every page is one click from the others."""
    with st.sidebar:
        st.markdown("### Kernel workbench")
        st.caption(f"runs from `{shown_path(runs_dir())}`")
        st.page_link(RUNS_PAGE, label="All runs", icon=":material/list:")
        if current is None:
            return
        st.page_link(
            RUN_PAGE,
            label=f"Run {current.title}",
            icon=":material/show_chart:",
            query_params={"run": current.path.name},
        )
        st.markdown("**Iterations**")
        for row in current.rows:
            params = {"run": current.path.name, "iteration": str(row.iteration)}
            if row.index:
                params["candidate"] = str(row.index + 1)
            st.page_link(
                ITERATION_PAGE,
                label=f"{row.label} · {short(row.rationale, 40)}",
                icon=OUTCOME_ICON.get(row.outcome),
                help=f"{row.outcome}: {short(row.reason, 200)}",
                query_params=params,
                disabled=row.iteration == iteration,
            )


def short(text: str | None, width: int) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def when(stamp: str | None) -> str:
    """'2026-11-29 11:21 UTC' from an ISO time; '-' when missing."""
    if not stamp:
        return "-"
    return stamp.replace("T", " ")[:16] + (" UTC" if stamp.endswith("+00:00") else "")


def number(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


# Streamlit wraps a text cell only in rows taller than 4rem (64 px): three lines of 14 px text.
WRAPPING_ROW_HEIGHT = 66


def shown_columns(table, hide=()) -> list[str]:
    """The columns of `table` (a DataFrame) worth a place at 1440 px: not in `hide`, not empty in every row, and
    `status` only where some row is not ok. st.dataframe's column_order; the data (and the CSV) keep them all."""
    shown = []
    for name in table.columns:
        values = table[name].dropna()
        values = values[values.astype(str) != ""]  # a column of empty text (no errors, no notes) is empty too
        if name in hide or values.empty or (name == "status" and set(values) <= {"ok"}):
            continue
        shown.append(name)
    return shown


# Glide's header font: about 6.5 px a character, and 16 px of padding; a column narrower cuts its title.
HEADER_CHAR_PX, HEADER_PAD_PX = 6.5, 16


def title_width(title: str, least: int = 0) -> int:
    """The px a column needs for its whole title (st.dataframe cuts a header, it never wraps one)."""
    return max(least, round(HEADER_PAD_PX + HEADER_CHAR_PX * len(title)))


def timing_columns(columns) -> tuple[list[str], dict]:
    """The Timings tab at 1440 px: times, rates and ratios (the medians), each column as wide as its title; the
    intervals of the ratios, batch sizes, method and the runner's own clock stay in the data (eval.json)."""
    kept = [
        c
        for c in columns
        if not c.endswith((" low", " high"))
        and c not in ("CI low us", "CI high us", "batches", "calls/batch", "method")
        and c not in ("copy GB/s", "self-reported us")
    ]
    config = {
        name: st.column_config.NumberColumn(format=spec, width=title_width(name, 55 if name == "±" else 70))
        for name, spec in data.number_formats(columns).items()
    }
    config |= {"shape": st.column_config.TextColumn(width=155), "dtype": st.column_config.TextColumn(width=45)}
    config |= {name: st.column_config.TextColumn(width=200) for name in ("errors", "note", "status")}
    return kept, config


def shape_table_columns(columns) -> dict:
    """column_config of a per-shape table (ui/data.py: best_shape_table) that fits at 1440 px: each column as wide
    as its title, the decision scope left out of the titles (the caption under the table names it)."""
    widths = {"shape": 160, "dtype": 45, "bound": 55, "status": 60}
    config = {}
    for name, spec in data.number_formats(columns).items():
        label = name.removesuffix(" (graph)").removesuffix(" (eager)")
        config[name] = st.column_config.NumberColumn(label, format=spec, width=title_width(label, 60))
    return config | {name: st.column_config.TextColumn(width=w) for name, w in widths.items() if name in columns}


def number_columns(columns, **extra) -> dict:
    """st.dataframe column_config for a table of ui/data.py, formats chosen from the column titles."""
    config = {name: st.column_config.NumberColumn(format=spec) for name, spec in data.number_formats(columns).items()}
    return config | extra


@st.cache_data(max_entries=16, show_spinner=False)
def exports(path: str, stamp: int) -> dict[str, str | None]:
    """prompts.md and reflection.md (agent export's own text) and the results CSV; None where one cannot be made yet."""
    from tools.export import prompts_markdown, reflection_markdown
    from tools.runfolder import RunFolder

    folder = RunFolder(Path(path))
    files: dict[str, str | None] = {}
    for name, make in (("prompts.md", prompts_markdown), ("reflection.md", reflection_markdown)):
        try:
            files[name] = make(folder)
        except (OSError, KeyError, TypeError, ValueError):  # a run.json not written far enough yet
            files[name] = None
    files["results.csv"] = data.results_csv(Path(path))
    return files


STATUS_COLOUR = {"finished": "green", "running": "blue", "stopped": "orange", "starting": "gray", "failed": "red"}


def status_badge(status: str) -> None:
    st.badge(status, color=STATUS_COLOUR.get(status, "gray"))
