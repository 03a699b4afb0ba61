"""The run page's chart: speed per iteration, in one timing scope, against the baselines timed beside the start.

The scope (graph or eager: tools/evaluator/records.py) is the run's decision scope unless the page asks for
another; the axis and the title name it, and a candidate not timed in it is drawn as unmeasured.

Colour is the outcome; a rejected or failed candidate's legend entry, shape and tooltip also name the rule
that turned it down, read from its recorded decision (tools/export.py: decision_rule): a point above the
kept line was not wrong to reject when one shape was slower beyond noise, and the chart says which it was.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.data import SCOPE_HELP, IterationRow, scope_label

COLOURS = {
    "baseline": "#6b7280",
    "accepted": "#16a34a",
    "rejected": "#f59e0b",
    "failed": "#dc2626",
    "evaluating": "#2563eb",
    "proposed": "#2563eb",
}
SHAPES = {
    "baseline": "diamond",
    "accepted": "circle",
    "rejected": "circle",
    "failed": "cross",
    "evaluating": "triangle-up",
    "proposed": "triangle-up",
}
LEVEL_COLOURS = {
    "torch": "#7c3aed",
    "torch.compile": "#0891b2",
    "Liger-Kernel": "#ca8a04",
    "copy roofline": "#111827",
}
# What each dashed rule is, for the caption under the chart.
LEVEL_TEXT = {
    "torch": "the torch reference op",
    "torch.compile": "torch.compile of it",
    "Liger-Kernel": "Liger-Kernel's kernel for the op",
    "copy roofline": "a device-to-device copy of the same bytes",
}
# The shape of a rejected candidate's point, per rule (tools/export.py: REJECTION_RULES); a rule not here
# (one decide.py gains later) takes the next of SPARE_SHAPES.
RULE_SHAPES = {
    "a shape slower beyond noise": "triangle-down",
    "within noise": "square",
    "another candidate of its round was faster": "triangle-right",
    "not timed against the best": "diamond",
}
SPARE_SHAPES = ("triangle-left", "wedge", "stroke", "triangle-up")
# Shades of the failed colour, one per failing rule (incorrect, did not compile, roofline check, ...).
FAILED_SHADES = ("#dc2626", "#7f1d1d", "#f87171", "#b91c1c", "#fca5a5")
METRICS = {
    "gbps": "median GB/s over shapes",
    "vs_start": "geomean speedup over the starting kernel",
}


def _value(row: IterationRow, metric: str, scope: str | None = None) -> float | None:
    """The row's speed in `scope` (None: the row's own decision scope)."""
    if scope is None:
        return row.median_gbps if metric == "gbps" else row.geomean_vs_start
    return (row.gbps_by_scope if metric == "gbps" else row.vs_start_by_scope).get(scope)


def axis_title(metric: str, scope: str | None) -> str:
    """'median GB/s over shapes, graph scope'."""
    return METRICS[metric] + (f", {scope_label(scope)} scope" if scope else "")


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def chart_caption(levels: dict[str, float], scope: str | None) -> str:
    """What the chart shows, naming its scope and only the baselines drawn as rules."""
    text = "Each point is one candidate; the line is the version kept so far"
    text += f"; times are of the {scope_label(scope)} scope ({SCOPE_HELP[scope]})." if scope in SCOPE_HELP else "."
    if levels:
        text += f" Dashed rules: {_listing([LEVEL_TEXT.get(n, n) for n in levels])}, timed beside the starting kernel"
        text += " in the same scope." if scope else "."
    return text + (
        " A rejected or failed candidate's legend entry and shape name the rule that turned it down, from its "
        "recorded decision. Hover for the change and the decision; click a point to open its iteration."
    )


def legend_label(row: IterationRow) -> str:
    """The legend entry of a candidate: its outcome, and for a rejected or failed one the rule that decided it."""
    if row.outcome in ("rejected", "failed") and row.rule:
        return f"{row.outcome}: {row.rule}"
    return row.outcome


def legend_scales(frame: pd.DataFrame) -> tuple[list[str], list[str], list[str]]:
    """The legend's entries (outcomes in COLOURS order, the most common rule first within one) with the
    colour and the shape of each."""
    first = frame.drop_duplicates("legend")
    counts = frame["legend"].value_counts()
    order = {o: i for i, o in enumerate(COLOURS)}
    first = sorted(first.itertuples(), key=lambda r: (order.get(r.outcome, len(order)), -counts[r.legend], r.legend))
    entries, colours, shapes = [], [], []
    spare, shades = iter(SPARE_SHAPES * len(first)), iter(FAILED_SHADES * len(first))
    for r in first:
        entries.append(r.legend)
        ruled = r.outcome in ("rejected", "failed") and r.rule != "-"
        colours.append(next(shades) if ruled and r.outcome == "failed" else COLOURS.get(r.outcome, "#374151"))
        rejected = ruled and r.outcome == "rejected"
        shapes.append((RULE_SHAPES.get(r.rule) or next(spare)) if rejected else SHAPES.get(r.outcome, "circle"))
    return (entries, colours, shapes) if entries else (["baseline"], [COLOURS["baseline"]], [SHAPES["baseline"]])


def chart_frame(rows: list[IterationRow], metric: str, scope: str | None = None) -> pd.DataFrame:
    """One point per candidate; those with no speed in `scope` (failed at a stage, still running, or timed in
    another scope only) have `measured` False."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}, not {metric!r}")
    records = []
    for row in rows:
        value = _value(row, metric, scope)
        other = value is None and bool(row.gbps_by_scope)  # timed, but not in this scope
        records.append(
            {
                "iteration": row.iteration,
                "candidate": row.index + 1,
                "outcome": row.outcome,
                "rule": row.rule or "-",
                "legend": legend_label(row),
                "value": value if value is not None else 0.0,
                "measured": value is not None,
                "speed": f"not timed in the {scope} scope on every shape"
                if other
                else ("-" if value is None else f"{value:.4g}"),
                "scope": scope or row.scope or "-",
                "stage": row.failed_stage or "-",
                "change": row.rationale,
                "decision": row.reason,
                "commit": (row.commit or "")[:10] or "-",
            }
        )
    columns = ["iteration", "candidate", "outcome", "rule", "legend", "value", "measured", "speed", "scope", "stage"]
    frame = pd.DataFrame(records, columns=[*columns, "change", "decision", "commit"])
    # Each entry carries its count, "rejected: within noise (3)": the legend also sums the run up.
    counts = frame["legend"].value_counts()
    frame["legend"] = [f"{label} ({counts[label]})" for label in frame["legend"]]
    return frame


def best_so_far(rows: list[IterationRow], metric: str, scope: str | None = None) -> pd.DataFrame:
    """The kept version's speed after each iteration: a step line from the start to the last iteration."""
    points, best = [], None
    last = max((r.iteration for r in rows), default=0)
    for row in rows:
        value = _value(row, metric, scope)
        if row.outcome in ("baseline", "accepted") and value is not None:
            best = value
            points.append({"iteration": row.iteration, "value": best})
    if points and points[-1]["iteration"] < last:
        points.append({"iteration": last, "value": best})
    return pd.DataFrame(points, columns=["iteration", "value"])


def wants_log_scale(frame: pd.DataFrame, levels: dict[str, float]) -> bool:
    """Log when the values span more than 20x: a CPU run sits far below torch eager, a GPU kernel near the copy."""
    values = [v for v in frame.loc[frame["measured"], "value"] if v > 0] + [v for v in levels.values() if v > 0]
    return bool(values) and max(values) / min(values) > 20


HEIGHT = 400


def speed_chart(
    rows: list[IterationRow],
    levels: dict[str, float],
    metric: str = "gbps",
    log: bool | None = None,
    scope: str | None = None,
) -> alt.LayerChart:
    """Measured candidates (colour and shape by outcome), the best-so-far line and one rule per baseline,
    all in `scope` (the levels must come from the same scope: data.baseline_levels).

    Candidates with no speed (failed at a stage, or still running) are a faint band across the whole height
    at their iteration, so a failure reads as neither a zero nor a gap. A click on a point or band selects it
    (selections `pick` and `pick_unmeasured`), so the page can open that iteration.
    """
    frame = chart_frame(rows, metric, scope)
    log = wants_log_scale(frame, levels) if log is None else log
    last = int(frame["iteration"].max()) if len(frame) else 0
    x = alt.X(
        "iteration:Q",
        title="iteration",
        axis=alt.Axis(tickMinStep=1, format="d"),
        scale=alt.Scale(domain=[-0.5, last + 0.5], nice=False),
    )
    y_scale = alt.Scale(type="log") if log else alt.Scale(zero=True)
    title = axis_title(metric, scope)
    y = alt.Y("value:Q", title=title + (" (log scale)" if log else ""), scale=y_scale)
    entries, colours, shapes = legend_scales(frame)
    # One legend for colour and shape (the same field and title): the outcome, and the rule that rejected it.
    legend = alt.Legend(title=None, orient="top", symbolOpacity=1, labelLimit=0, columns=3)
    colour = alt.Color("legend:N", scale=alt.Scale(domain=entries, range=colours), legend=legend)
    shape = alt.Shape("legend:N", scale=alt.Scale(domain=entries, range=shapes), legend=legend)
    tooltip = [
        alt.Tooltip("iteration:Q"),
        alt.Tooltip("candidate:Q"),
        alt.Tooltip("outcome:N"),
        alt.Tooltip("rule:N", title="rule"),
        alt.Tooltip("speed:N", title=METRICS[metric]),
        alt.Tooltip("scope:N"),
        alt.Tooltip("stage:N", title="failing stage"),
        alt.Tooltip("change:N"),
        alt.Tooltip("decision:N"),
        alt.Tooltip("commit:N"),
    ]
    measured = (
        alt.Chart(frame)
        .transform_filter("datum.measured")
        .mark_point(size=150, filled=True, opacity=0.9)
        .encode(x=x, y=y, color=colour, shape=shape, tooltip=tooltip)
    )
    unmeasured = (
        alt.Chart(frame)
        .transform_filter("!datum.measured")
        .mark_rule(strokeWidth=10, opacity=0.25)
        .encode(x=x, color=colour, tooltip=tooltip)
    )
    layers = [
        alt.Chart(best_so_far(rows, metric, scope))
        .mark_line(interpolate="step-after", color=COLOURS["accepted"], opacity=0.5, strokeWidth=2)
        .encode(x=x, y=y),
        # A selection per layer of points: a click on any of them names the iteration to open.
        unmeasured.add_params(alt.selection_point(name="pick_unmeasured", fields=["iteration", "candidate"])),
        measured.add_params(alt.selection_point(name="pick", fields=["iteration", "candidate"], on="click")),
    ]
    for name, value in levels.items():
        level = pd.DataFrame([{"level": name, "value": value, "iteration": last + 0.5, "text": f"{name} {value:.4g}"}])
        tint = LEVEL_COLOURS.get(name, "#374151")
        layers.append(alt.Chart(level).mark_rule(strokeDash=[6, 4], color=tint).encode(y=y))
        layers.append(
            alt.Chart(level)
            .mark_text(align="right", baseline="bottom", dx=-4, dy=-3, color=tint, fontSize=12)
            .encode(x=x, y=y, text="text:N")
        )
    return alt.layer(*layers).properties(height=HEIGHT)
