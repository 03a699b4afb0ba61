"""The run page's chart: each candidate's speed, in one timing scope, as what decided it or against the baselines.

Three y axes (METRICS). `vs_best`, the default, is what the acceptance rule weighed: the geomean over the shapes
timed of the judge's per-round ratios against the best of its time, so every candidate is drawn, a candidate
stopped early hollow and labelled with the shapes it was timed on (3/18). The median GB/s and the speedup over
the start compare candidates over the run's whole set of shapes, so there a candidate stopped early is a dotted
line at its iteration, not a point: its median would be of other shapes (one on a decode shape sat at 7.8 GB/s,
one on three prefill shapes at 3617 GB/s, above the copy's 1941). A point still above the copy line is ringed
in red as a measurement error: no kernel moves its bytes faster than a copy of them.

The scope (graph or eager: tools/evaluator/records.py) is the run's decision scope unless the page asks for
another; the axis and the title name it, and a candidate not timed in it is drawn as unmeasured.

Colour is the outcome; a rejected or failed candidate's legend entry, shape and tooltip also name the rule
that turned it down, read from its recorded decision (tools/evaluator/decide.py: Decision.rule and .label).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from tools.evaluator.decide import Rule
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
# The shape of a rejected candidate's point, per rule (tools/evaluator/decide.py: Rule); a rule not here
# takes the next of SPARE_SHAPES.
RULE_SHAPES = {
    Rule.SLOWER_SHAPE: "triangle-down",
    Rule.WITHIN_NOISE: "square",
    Rule.BEATEN: "triangle-right",
    Rule.NOT_TIMED: "diamond",
}
SPARE_SHAPES = ("triangle-left", "wedge", "stroke", "triangle-up")
# Shades of the failed colour, one per failing rule (incorrect, did not compile, roofline check, ...).
FAILED_SHADES = ("#dc2626", "#7f1d1d", "#f87171", "#b91c1c", "#fca5a5")
METRICS = {
    "vs_best": "vs the best of its time, shapes timed",
    "gbps": "median GB/s over shapes",
    "vs_start": "geomean speedup over the starting kernel",
}
# What the segmented control above the chart calls each.
METRIC_BUTTONS = {"vs_best": "vs the best (decides)", "gbps": "median GB/s", "vs_start": "speedup over the start"}
COPY_LEVEL = "copy roofline"
FLAG_COLOUR = "#b91c1c"
MEASUREMENT_ERROR = "above the copy of the same bytes: a measurement error (no kernel moves them faster)"


def _value(row: IterationRow, metric: str, scope: str | None = None) -> float | None:
    """The row's speed in `scope` (None: the row's own decision scope). The start is the first best: 1 vs it."""
    if metric == "vs_best" and row.outcome == "baseline":
        return 1.0
    if scope is None:
        return {"gbps": row.median_gbps, "vs_start": row.geomean_vs_start, "vs_best": row.geomean_vs_best}[metric]
    by_scope = {"gbps": row.gbps_by_scope, "vs_start": row.vs_start_by_scope, "vs_best": row.vs_best_by_scope}
    return by_scope[metric].get(scope)


def axis_title(metric: str, scope: str | None) -> str:
    """'median GB/s over shapes, graph scope'."""
    return METRICS[metric] + (f", {scope_label(scope)} scope" if scope else "")


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def chart_caption(levels: dict[str, float], scope: str | None, metric: str = "gbps", frame=None) -> str:
    """What the chart shows, naming its scope, only the baselines drawn as rules, and what the marks mean."""
    if metric == "vs_best":
        text = (
            "Each point is one candidate: the geomean, over the shapes it was timed on, of the judge's per-round "
            "ratios against the best of its time (the starting kernel is the first best, at 1)"
        )
    else:
        text = "Each point is one candidate; the line is the version kept so far"
    text += f"; times are of the {scope_label(scope)} scope ({SCOPE_HELP[scope]})." if scope in SCOPE_HELP else "."
    if levels:
        text += f" Dashed rules: {_listing([LEVEL_TEXT.get(n, n) for n in levels])}, timed beside the starting kernel"
        text += " in the same scope." if scope else "."
    partial = int(frame["partial"].sum()) if frame is not None and len(frame) else 0
    if partial and metric == "vs_best":
        text += (
            f" Hollow, with the shapes timed (3/18): {partial} candidate(s) stopped at the first shape slower beyond "
            "noise, so their ratio is of those shapes only."
        )
    elif partial:
        text += (
            f" Dotted lines: {partial} candidate(s) stopped early, timed on some shapes only; their median would be "
            "of other shapes than the rest, so it is not drawn (the vs-the-best view shows what decided them)."
        )
    flagged = int(frame["flagged"].sum()) if frame is not None and len(frame) else 0
    if flagged:
        text += f" Ringed in red: {flagged} point(s) {MEASUREMENT_ERROR}."
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
        shapes.append((RULE_SHAPES.get(r.rule_id) or next(spare)) if rejected else SHAPES.get(r.outcome, "circle"))
    return (entries, colours, shapes) if entries else (["baseline"], [COLOURS["baseline"]], [SHAPES["baseline"]])


def chart_frame(
    rows: list[IterationRow], metric: str, scope: str | None = None, ceiling: float | None = None
) -> pd.DataFrame:
    """One row per candidate; `mark` says how it is drawn: a `point`; a `band` where it has no speed in `scope`
    (failed at a stage, still running, timed in another scope only); `dotted` where, on a whole-set metric, it
    was stopped early (`partial`). `flagged`: above `ceiling`, the copy's level, which only a measurement error
    can be."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}, not {metric!r}")
    records = []
    for row in rows:
        value = _value(row, metric, scope)
        other = value is None and bool(row.gbps_by_scope)  # timed, but not in this scope
        hidden = row.partial and metric != "vs_best"  # a median of other shapes than the rest's
        if hidden:
            speed = f"not drawn: stopped early, timed on {row.shapes_text}"
        elif other:
            speed = f"not timed in the {scope} scope on every shape"
        else:
            speed = "-" if value is None else f"{value:.4g}"
        flagged = bool(not hidden and value is not None and ceiling and value > ceiling)
        records.append(
            {
                "iteration": row.iteration,
                "candidate": row.index + 1,
                "outcome": row.outcome,
                "rule": row.rule or "-",
                "rule_id": row.decision.rule.value if row.decision else "-",
                "legend": legend_label(row),
                "value": value if value is not None and not hidden else 0.0,
                "measured": value is not None and not hidden,
                "mark": "point" if value is not None and not hidden else ("dotted" if hidden and value else "band"),
                "partial": row.partial,
                "shapes": row.shapes_text or "-",
                "label": f"{row.shapes_timed}/{row.shapes_planned}" if row.partial else "",
                "flagged": flagged,
                "check": MEASUREMENT_ERROR if flagged else "-",
                "speed": speed,
                "scope": scope or row.scope or "-",
                "stage": row.failed_stage or "-",
                "change": row.rationale,
                "decision": row.reason,
                "commit": (row.commit or "")[:10] or "-",
            }
        )
    columns = ["iteration", "candidate", "outcome", "rule", "rule_id", "legend", "value", "measured", "mark"]
    columns += ["partial", "shapes"]
    columns += ["label", "flagged", "check", "speed", "scope", "stage", "change", "decision", "commit"]
    frame = pd.DataFrame(records, columns=columns)
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
    metric: str = "vs_best",
    log: bool | None = None,
    scope: str | None = None,
) -> alt.LayerChart:
    """Measured candidates (colour and shape by outcome; hollow and labelled where stopped early), the kept
    line (or, for `vs_best`, the rule at 1) and one rule per baseline, all in `scope` (the levels must come
    from the same scope: data.baseline_levels).

    Candidates with no speed (failed at a stage, or still running) are a faint band across the whole height
    at their iteration, so a failure reads as neither a zero nor a gap; those stopped early, on a whole-set
    metric, a dotted line. A click on a point or band selects it (selections `pick` and `pick_unmeasured`),
    so the page can open that iteration.
    """
    frame = chart_frame(rows, metric, scope, ceiling=levels.get(COPY_LEVEL))
    log = wants_log_scale(frame, levels) if log is None else log
    last = int(frame["iteration"].max()) if len(frame) else 0
    x = alt.X(
        "iteration:Q",
        title="iteration",
        axis=alt.Axis(tickMinStep=1, format="d"),
        scale=alt.Scale(domain=[-0.5, last + 0.5], nice=False),
    )
    y_scale = alt.Scale(type="log") if log else alt.Scale(zero=metric != "vs_best")
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
        alt.Tooltip("shapes:N", title="shapes timed"),
        alt.Tooltip("check:N"),
        alt.Tooltip("scope:N"),
        alt.Tooltip("stage:N", title="failing stage"),
        alt.Tooltip("change:N"),
        alt.Tooltip("decision:N"),
        alt.Tooltip("commit:N"),
    ]
    # Filled where timed on every shape, hollow where stopped early: one layer, so one selection covers both.
    measured = (
        alt.Chart(frame)
        .transform_filter("datum.measured")
        .mark_point(size=150, opacity=0.9, strokeWidth=2)
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=shape,
            fill=alt.condition("datum.partial", alt.value("white"), colour),
            tooltip=tooltip,
        )
    )
    unmeasured = (
        alt.Chart(frame)
        .transform_filter("datum.mark == 'band'")
        .mark_rule(strokeWidth=10, opacity=0.25)
        .encode(x=x, color=colour, tooltip=tooltip)
    )
    # Stopped early, on a whole-set metric: where it was, and why it is not a point.
    not_drawn = (
        alt.Chart(frame)
        .transform_filter("datum.mark == 'dotted'")
        .mark_rule(strokeWidth=2, strokeDash=[2, 3], opacity=0.7)
        .encode(x=x, color=colour, tooltip=tooltip)
    )
    layers = []
    if metric == "vs_best":
        best = pd.DataFrame([{"value": 1.0, "iteration": last + 0.5, "text": "the best of its time"}])
        layers += [
            alt.Chart(best).mark_rule(color=COLOURS["accepted"], opacity=0.6).encode(y=y),
            alt.Chart(best)
            .mark_text(align="right", baseline="bottom", dx=-4, dy=-3, color=COLOURS["accepted"], fontSize=12)
            .encode(x=x, y=y, text="text:N"),
        ]
    else:
        layers.append(
            alt.Chart(best_so_far(rows, metric, scope))
            .mark_line(interpolate="step-after", color=COLOURS["accepted"], opacity=0.5, strokeWidth=2)
            .encode(x=x, y=y)
        )
    layers += [
        # A selection per layer of points: a click on any of them names the iteration to open.
        unmeasured.add_params(alt.selection_point(name="pick_unmeasured", fields=["iteration", "candidate"])),
        not_drawn,
        measured.add_params(alt.selection_point(name="pick", fields=["iteration", "candidate"], on="click")),
        alt.Chart(frame)
        .transform_filter("datum.measured && datum.partial")
        .mark_text(dy=-14, fontSize=11, color="#374151")
        .encode(x=x, y=y, text="label:N"),
        alt.Chart(frame)
        .transform_filter("datum.flagged")
        .mark_point(size=520, shape="circle", filled=False, strokeWidth=2.5, color=FLAG_COLOUR)
        .encode(x=x, y=y, tooltip=tooltip),
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
