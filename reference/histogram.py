"""An SVG histogram of game lengths, built as XML elements (no plotting library, nothing assembled by hand)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Sequence

_WIDTH, _HEIGHT = 760, 420
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 20, 50, 70
_COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb")
_MAX_BINS = 50


def render_svg(series: Sequence[tuple[str, Sequence[int]]], title: str, max_rounds: int | None = None) -> str:
    """A histogram of rounds per game, one translucent colour per (label, lengths) series, as an SVG document.

    With max_rounds, a note says the games stopped at that cap (if any) make up the last bar.
    """
    longest = max((max(lengths, default=0) for _, lengths in series), default=0)
    width = _nice_step(longest + 1, _MAX_BINS)
    bins = longest // width + 1
    counts = [[0] * bins for _ in series]
    for row, (_, lengths) in zip(counts, series):
        for length in lengths:
            row[length // width] += 1
    top = max((max(row) for row in counts), default=0) or 1
    y_step = _nice_step(top, 5)
    y_max = math.ceil(top / y_step) * y_step
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(_WIDTH),
        height=str(_HEIGHT),
        viewBox=f"0 0 {_WIDTH} {_HEIGHT}",
        role="img",
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", width=str(_WIDTH), height=str(_HEIGHT), fill="white")
    _text(svg, _WIDTH / 2, 25, title, size=15, anchor="middle")

    def x_of(rounds: float) -> float:
        return _LEFT + plot_w * rounds / (bins * width)

    def y_of(games: float) -> float:
        return _TOP + plot_h * (1 - games / y_max)

    for value in range(0, y_max + 1, y_step):
        y = y_of(value)
        ET.SubElement(svg, "line", x1=f"{_LEFT}", x2=f"{_LEFT + plot_w}", y1=f"{y:.1f}", y2=f"{y:.1f}",
                      stroke="#dddddd")
        _text(svg, _LEFT - 8, y + 4, str(value), anchor="end")
    x_step = _nice_step(bins * width, 8)
    for value in range(0, bins * width + 1, x_step):
        _text(svg, x_of(value), _TOP + plot_h + 18, str(value), anchor="middle")
    _text(svg, _LEFT + plot_w / 2, _HEIGHT - 28, f"rounds per game (bars {width} round{'s' * (width > 1)} wide)",
          anchor="middle")
    _text(svg, 18, _TOP + plot_h / 2, "games", anchor="middle", rotate=True)
    if max_rounds is not None and any(max_rounds in lengths for _, lengths in series):
        _text(svg, _LEFT, _HEIGHT - 8, f"games stopped at the {max_rounds}-round cap are in the last bar", size=11)

    for index, ((label, _), row) in enumerate(zip(series, counts)):
        colour = _COLOURS[index % len(_COLOURS)]
        group = ET.SubElement(svg, "g", fill=colour, attrib={"fill-opacity": "0.6" if len(series) > 1 else "0.9"})
        for bin_index, count in enumerate(row):
            if not count:
                continue
            x0, x1 = x_of(bin_index * width), x_of((bin_index + 1) * width)
            bar = ET.SubElement(group, "rect", x=f"{x0:.1f}", y=f"{y_of(count):.1f}",
                                width=f"{max(x1 - x0 - 1, 1):.1f}", height=f"{y_of(0) - y_of(count):.1f}")
            first = bin_index * width
            ET.SubElement(bar, "title").text = f"{label}: {count} games of {first}-{first + width - 1} rounds"
        if len(series) > 1:
            y = _TOP + 14 + 18 * index
            ET.SubElement(svg, "rect", x=f"{_LEFT + plot_w - 220}", y=f"{y - 10}", width="12", height="12",
                          fill=colour, attrib={"fill-opacity": "0.6"})
            _text(svg, _LEFT + plot_w - 202, y, label)
    ET.SubElement(svg, "line", x1=f"{_LEFT}", x2=f"{_LEFT + plot_w}", y1=f"{y_of(0):.1f}", y2=f"{y_of(0):.1f}",
                  stroke="black")
    ET.SubElement(svg, "line", x1=f"{_LEFT}", x2=f"{_LEFT}", y1=f"{_TOP}", y2=f"{y_of(0):.1f}", stroke="black")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"


def _nice_step(span: int, parts: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that cuts span into at most `parts` pieces."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if span <= factor * step * parts:
                return factor * step
        step *= 10


def _text(parent: ET.Element, x: float, y: float, content: str, *, size: int = 12, anchor: str = "start",
          rotate: bool = False) -> None:
    """A line of text at (x, y)."""
    attrib = {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-family": "sans-serif", "font-size": str(size),
              "text-anchor": anchor}
    if rotate:
        attrib["transform"] = f"rotate(-90 {x:.1f} {y:.1f})"
    ET.SubElement(parent, "text", attrib=attrib).text = content
