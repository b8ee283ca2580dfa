r"""One style for every figure exactdp draws: sized for a two-column paper, printable in grey.

* **Size**: :data:`COLUMN_WIDTH` = 3.5 in (one column of a two-column paper), :data:`TEXT_WIDTH` = 7.16 in
  (both columns); fonts 8 pt (legend 7 pt) so that the text in print matches a 9–10 pt paper.
* **Files**: :func:`save` writes a 300-dpi PNG (:data:`DPI`, recorded in the PNG's ``pHYs`` chunk) and a
  vector PDF, without dates in the PDF's metadata (same input, same file).
* **Mathtext**: labels are written as ``$\Gamma_{\max}$``, ``$K_1$``, ``$e^{\varepsilon}$``; the STIX fonts
  make them look like the paper's Times/Computer Modern text.
* **Grey-scale series**: :func:`series` gives the i-th combination of colour (a palette whose lightness
  also differs), line style and marker, so curves stay apart in black-and-white print.
* **Legends never cover data**: :func:`place_legend` tries the free corners of the axes and keeps the first
  whose box meets no plotted point or line segment (:func:`legend_overlaps`, in display coordinates through
  matplotlib's renderer); if none is free the legend goes below the axes, outside the data area.
* **Axes**: :func:`label` names both axes with their units (``"nats"``, ``"probability"``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from exactdp.errors import InputError

#: one column of a two-column paper (IEEE: 3.5 in), and the full text width
COLUMN_WIDTH = 3.5
TEXT_WIDTH = 7.16
#: resolution of every PNG
DPI = 300

#: matplotlib settings of every figure (applied by :func:`style`)
RC = {
    "figure.dpi": 100,
    "savefig.dpi": DPI,
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "legend.frameon": True,
    "legend.framealpha": 0.9,
    "legend.handlelength": 2.6,
    "font.family": "STIXGeneral",
    "mathtext.fontset": "stix",
    "lines.linewidth": 1.1,
    "lines.markersize": 3.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "axes.linewidth": 0.6,
    "pdf.fonttype": 42,
}

#: colours (Okabe–Ito, colour-blind safe) ordered so that neighbours differ in lightness too
COLORS = ("#000000", "#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1.5, 1, 1.5, 1, 1.5)), (0, (1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "x", "P", "*")

#: the corners (and edge middles) :func:`place_legend` tries inside the axes, in this order
LEGEND_LOCATIONS = ("upper right", "upper left", "lower left", "lower right", "center right", "center left",
                    "upper center", "lower center")


class MissingDependencyError(InputError):
    """An optional dependency (an extra of the package) is not installed."""


#: what to install for the figures: one line, named by the error of :func:`pyplot`
FIGURES_EXTRA = 'pip install "exactdp[figures]"'


def plotted(x) -> float:
    """The float a figure draws for an exact value or certified ball: the midpoint of its ball (the exact
    value stays in the data; floats exist only in plotted arrays)."""
    from exactdp.numbers.rb import arb_eval

    return float(arb_eval(x).mid())


def pyplot():
    """pyplot, on the non-interactive Agg backend unless pyplot is already set up (a notebook's inline).

    Raises :class:`MissingDependencyError` (one line on the command line, exit 2) naming the extra to
    install when matplotlib is missing."""
    import sys

    try:
        import matplotlib
    except ImportError:
        raise MissingDependencyError(f"figures need matplotlib, which is not installed; install it with "
                                     f"{FIGURES_EXTRA} (or pip install matplotlib)") from None
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@contextlib.contextmanager
def style():
    """The settings :data:`RC` in force for the figures made inside the block."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield


def series(i: int) -> dict:
    """Keyword arguments of ``ax.plot`` for the i-th curve: colour, line style and marker all change.

    >>> series(0)["linestyle"], series(1)["marker"], series(1)["color"]
    ('-', 's', '#E69F00')
    """
    return {"color": COLORS[i % len(COLORS)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)]}


def figure(nrows: int = 1, ncols: int = 1, *, width: float = COLUMN_WIDTH, height: float | None = None,
           **kw):
    """``(fig, axes)`` of the given grid, ``width`` inches wide (default: one column), with constrained
    layout (labels and outside legends are kept inside the figure)."""
    plt = pyplot()
    if height is None:
        height = 2.4 * nrows + 0.2
    with style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(width, height), layout="constrained", **kw)
    return fig, axes


def label(ax, xlabel: str, ylabel: str) -> None:
    """Both axis labels (each with its unit in parentheses, e.g. ``r"$\varepsilon$ (nats)"``)."""
    with style():
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)


def _data_display_points(ax, per_segment: int = 24):
    """Every plotted point of ``ax`` and points along each line segment, in display coordinates (pixels)."""
    import numpy as np

    pts = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = np.column_stack([np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)])
        xy = xy[np.isfinite(xy).all(axis=1)]
        if not len(xy):
            continue
        disp = line.get_transform().transform(xy)
        pts.append(disp)
        if line.get_linestyle() not in ("None", "none", "", " ") and len(disp) > 1:
            s = np.linspace(0.0, 1.0, per_segment)[1:-1, None]
            for a, b in zip(disp[:-1], disp[1:]):
                pts.append(a + s * (b - a))
    for coll in ax.collections:
        offs = coll.get_offsets()
        if len(offs):
            pts.append(coll.get_offset_transform().transform(np.asarray(offs, float)))
    return np.concatenate(pts) if pts else np.zeros((0, 2))


def covered_points(ax, artist, *, pad: float = 1.0) -> int:
    """How many plotted points (markers and points along the drawn line segments) of ``ax`` lie inside the
    box of ``artist`` (a legend, an inset axes), both in display coordinates after a draw with the figure's
    renderer; ``pad`` pixels of margin.  0 means the artist covers no data of ``ax``."""
    import numpy as np

    from matplotlib.axes import Axes

    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    # an axes (an inset) with its tick labels and title; a legend's frame
    box = artist.get_tightbbox(renderer) if isinstance(artist, Axes) else artist.get_window_extent(renderer)
    pts = _data_display_points(ax)
    if box is None or not len(pts):
        return 0
    inside = ((pts[:, 0] >= box.x0 - pad) & (pts[:, 0] <= box.x1 + pad)
              & (pts[:, 1] >= box.y0 - pad) & (pts[:, 1] <= box.y1 + pad))
    return int(np.count_nonzero(inside))


def legend_overlaps(ax, legend=None, *, pad: float = 1.0) -> int:
    """:func:`covered_points` of ``legend`` (default: the axes' legend; 0 when there is none)."""
    legend = legend if legend is not None else ax.get_legend()
    return 0 if legend is None else covered_points(ax, legend, pad=pad)


def place_legend(ax, **kw):
    """A legend on ``ax`` in the first of :data:`LEGEND_LOCATIONS` where it covers no data
    (:func:`legend_overlaps` is 0); below the axes (outside the data area) when every location covers some."""
    with style():
        for loc in LEGEND_LOCATIONS:
            leg = ax.legend(loc=loc, **kw)
            if legend_overlaps(ax, leg) == 0:
                return leg
        return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), **kw)


def legend_below(fig, handles, labels, *, ncol: int = 2):
    """One legend for the whole figure, below every panel (constrained layout makes room for it)."""
    with style():
        return fig.legend(handles, labels, loc="outside lower center", ncol=ncol)


def save(fig, stem, formats=("png", "pdf")) -> list[Path]:
    """Write ``stem.png`` (:data:`DPI` dpi) and ``stem.pdf`` (vector), no creation date in the PDF.  Each
    file is rendered in memory first and written atomically (:func:`exactdp.atomic_io.write_atomic`), so a
    failed or interrupted save keeps the previous figure."""
    import io

    from exactdp.atomic_io import write_atomic

    paths = []
    for fmt in formats:
        p = Path(f"{stem}.{fmt}")
        meta = {"CreationDate": None} if fmt == "pdf" else ({"Date": None} if fmt == "svg" else None)
        buf = io.BytesIO()
        with style():
            fig.savefig(buf, dpi=DPI, format=fmt, metadata=meta)
        write_atomic(p, buf.getvalue(), "-o")
        paths.append(p)
    return paths
