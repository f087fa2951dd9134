"""Is a figure legible?  Overlapping tick labels, text outside the canvas, too many series.

Every figure the studies write goes through :func:`guts.studies.output.save_figure`,
which asks :func:`legibility_problems` first and warns (``FigureLegibilityWarning``)
naming each problem; the tests turn that warning into an error, so a figure whose
labels collide or are cut off cannot be committed to ``results/`` unnoticed.
"""
from __future__ import annotations

import warnings

__all__ = ["legibility_problems", "FigureLegibilityWarning", "MAX_LABELLED_SERIES"]

#: More labelled series than this in one axes cannot be told apart by colour.
MAX_LABELLED_SERIES = 8
#: Pixels by which two labels may touch (antialiasing) before they count as overlapping.
OVERLAP_SLACK_PX = 1.0


class FigureLegibilityWarning(UserWarning):
    """A figure has overlapping labels, text outside its canvas or too many series."""


def _drawn_tick_labels(axis):
    """The tick labels matplotlib actually draws (ticks outside the view limits are not drawn)."""
    lo, hi = sorted(axis.get_view_interval())
    span = hi - lo
    out = []
    for tick in axis.get_major_ticks() + axis.get_minor_ticks():
        loc = tick.get_loc()
        if loc is None or not (lo - 1e-9 * span <= loc <= hi + 1e-9 * span):
            continue
        out += [lab for lab in (tick.label1, tick.label2) if lab.get_visible()]
    return out


def _texts(ax):
    out = []
    for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
        if not ax.axison or not axis.get_visible():  # ax.axis("off"): nothing of the axis is drawn
            continue
        ticks = [t for t in _drawn_tick_labels(axis) if t.get_visible() and t.get_text().strip()]
        out.append((f"{name} tick labels", ticks, True))
        out.append((f"{name} label", [axis.label] if axis.label.get_text().strip() else [], False))
    titles = [t for t in (ax.title, ax._left_title, ax._right_title) if t.get_text().strip()]
    out.append(("title", titles, False))
    legend = ax.get_legend()
    if legend is not None:
        out.append(("legend", list(legend.get_texts()), False))
    return out


def _overlap(a, b):
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > OVERLAP_SLACK_PX
            and min(a.y1, b.y1) - max(a.y0, b.y0) > OVERLAP_SLACK_PX)


def legibility_problems(fig, *, tight: bool = False, max_series: int = MAX_LABELLED_SERIES) -> list[str]:
    """The legibility problems of a matplotlib figure, one sentence each (empty: legible).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    tight : bool
        The figure will be saved with ``bbox_inches="tight"``, which grows the canvas to
        its text: text outside the canvas is then not a problem.
    max_series : int
        Largest number of labelled lines in one axes.
    """
    if not hasattr(fig.canvas, "get_renderer"):  # a Figure made without pyplot: give it an Agg canvas
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    problems = []
    for k, ax in enumerate(fig.axes):
        where = f"axes {k}" + (f" ('{ax.get_title()}')" if ax.get_title() else "")
        for what, texts, pairwise in _texts(ax):
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
            if not tight:
                for text, box in boxes:
                    if (box.x0 < canvas.x0 - OVERLAP_SLACK_PX or box.x1 > canvas.x1 + OVERLAP_SLACK_PX
                            or box.y0 < canvas.y0 - OVERLAP_SLACK_PX or box.y1 > canvas.y1 + OVERLAP_SLACK_PX):
                        problems.append(f"{where}: {what} '{text}' is cut off (outside the figure)")
            if pairwise:
                for i in range(len(boxes)):
                    for j in range(i + 1, len(boxes)):
                        if _overlap(boxes[i][1], boxes[j][1]):
                            problems.append(f"{where}: {what} '{boxes[i][0]}' and '{boxes[j][0]}' overlap")
        labelled = [ln for ln in ax.get_lines() if ln.get_label() and not ln.get_label().startswith("_")]
        if len(labelled) > max_series:
            problems.append(f"{where}: {len(labelled)} labelled series (at most {max_series} can be told apart)")
    return problems


def warn_if_illegible(fig, name: str, *, tight: bool = False) -> list[str]:
    """Warn with :class:`FigureLegibilityWarning` for every problem of ``fig``; return them."""
    problems = legibility_problems(fig, tight=tight)
    for p in problems:
        warnings.warn(f"{name}: {p}", FigureLegibilityWarning, stacklevel=3)
    return problems
