"""Chart geometry for the reports: numbers in SVG user units, laid out here and drawn by the templates."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..results import Telemetry

Point = tuple[float, float]


@dataclass(frozen=True)
class Tick:
    """One labelled position on an axis."""

    label: str
    """The text shown, e.g. "100"."""
    at: float
    """Its position along the axis, in user units."""


@dataclass(frozen=True)
class Frame:
    """A plot's canvas (width by height, the SVG's viewBox) and the rectangle its data is drawn in."""

    width: float
    height: float
    left: float
    """Where the data rectangle starts, from the canvas's left edge; the axis labels go outside it."""
    top: float
    right: float
    bottom: float


@dataclass(frozen=True)
class GamePlot:
    """Both queue sizes over one game, as two polylines on shared axes."""

    frame: Frame
    p1: list[Point]
    """P1's size after each round, round 0 being the deal."""
    p2: list[Point]
    """P2's size after each round."""
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    marker: float | None
    """Where the first differing round is, or None when the runs agree."""


@dataclass(frozen=True)
class GameComparison:
    """The reference's game beside the student's on the same deck, and where they part."""

    cards: int
    """Cards in the deck."""
    max_rounds: int
    reference: GamePlot
    student: GamePlot | None
    """None when the student's code could not play the game at all."""
    reference_rounds: int
    student_rounds: int
    first_difference: int | None
    """The first round (1-based) after which the queues differ (as the grader found them, else judged by their
    sizes), or where one game stops and the other goes on."""
    reference_at: list[int] | None
    """[P1, P2] in the reference after that round, or None if its game had already ended."""
    student_at: list[int] | None
    """The same for the student's game."""
    reference_final: list[int]
    student_final: list[int] | None


@dataclass(frozen=True)
class Bar:
    """One bar of a chart, with its label and where it is drawn."""

    label: str
    value: str
    """The number written beside the bar."""
    x: float
    y: float
    width: float
    height: float
    lowest: bool = False
    """Whether this bar is the lowest of its chart (drawn in the warning colour)."""


@dataclass(frozen=True)
class BarChart:
    """A histogram or a set of horizontal bars."""

    frame: Frame
    bars: list[Bar]
    ticks: list[Tick]


PLOT = Frame(width=400, height=226, left=30, top=12, right=388, bottom=180)
HISTOGRAM = Frame(width=400, height=210, left=14, top=18, right=384, bottom=170)
CATEGORY_ROW = 26
"""Height of one bar's row in the category-averages chart."""


def game_comparison(telemetry: Telemetry) -> GameComparison:
    """Lay out the reference's and the student's game on one scale, with the first round they differ marked."""
    cards = len(telemetry.deck)
    deal = [(cards + 1) // 2, cards // 2]
    reference = [deal, *telemetry.reference]
    student = [deal, *telemetry.student] if telemetry.student is not None else None
    rounds = max(len(reference), len(student or [])) - 1
    highest = max([cards, *(size for sizes in reference + (student or []) for size in sizes)])
    differs = None
    if student is not None:
        # The queues themselves, when the grader compared them, find a difference the sizes can hide.
        differs = telemetry.first_difference or _first_difference(telemetry.reference, telemetry.student)
    return GameComparison(
        cards=cards,
        max_rounds=telemetry.max_rounds,
        reference=_game_plot(reference, rounds, highest, cards, differs),
        student=_game_plot(student, rounds, highest, cards, differs) if student is not None else None,
        reference_rounds=len(telemetry.reference),
        student_rounds=len(telemetry.student or []),
        first_difference=differs,
        reference_at=_sizes_after(telemetry.reference, differs),
        student_at=_sizes_after(telemetry.student or [], differs),
        reference_final=reference[-1],
        student_final=student[-1] if student is not None else None,
    )


def _first_difference(reference: list[list[int]], student: list[list[int]] | None) -> int | None:
    """The first round after which the two games' sizes differ (1-based), or None if they are the same game."""
    student = student or []
    for index, (ours, theirs) in enumerate(zip(reference, student, strict=False)):
        if list(ours) != list(theirs):
            return index + 1
    if len(reference) != len(student):
        return min(len(reference), len(student)) + 1
    return None


def _sizes_after(history: list[list[int]], round_: int | None) -> list[int] | None:
    """The sizes after a round (1-based), or None if that game did not reach it."""
    if round_ is None or round_ > len(history):
        return None
    return list(history[round_ - 1])


def _game_plot(history: list[list[int]], rounds: int, highest: int, cards: int, marker: int | None) -> GamePlot:
    """One game's two lines, scaled so that `rounds` fills the width and `highest` the height.

    The size axis is marked at none, half and all of the deck's cards: the deal, and the end of a game.
    """
    frame = PLOT
    span_x = max(rounds, 1)
    span_y = max(highest, 1)

    def x(round_: float) -> float:
        return round(frame.left + (frame.right - frame.left) * round_ / span_x, 1)

    def y(size: float) -> float:
        return round(frame.bottom - (frame.bottom - frame.top) * size / span_y, 1)

    return GamePlot(
        frame=frame,
        p1=[(x(index), y(sizes[0])) for index, sizes in enumerate(history)],
        p2=[(x(index), y(sizes[1])) for index, sizes in enumerate(history)],
        x_ticks=[Tick(_number(value), x(value)) for value in nice_ticks(span_x)],
        y_ticks=[Tick(_number(value), y(value)) for value in sorted({0, cards // 2, cards})],
        marker=x(marker) if marker is not None else None,
    )


def nice_ticks(highest: float, count: int = 5) -> list[float]:
    """Round values from 0 to at least `highest`, about `count` steps apart (1, 2 or 5 times a power of ten)."""
    if highest <= 0:
        return [0]
    raw = highest / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(multiple * power for multiple in (1, 2, 5, 10) if multiple * power >= raw)
    return [index * step for index in range(int(highest // step) + 1)]


def histogram(percents: list[float], bins: int = 10) -> BarChart:
    """Counts of total scores (as percentages) in `bins` equal ranges from 0 to 100, the last one closed."""
    frame = HISTOGRAM
    counts = [0] * bins
    for percent in percents:
        counts[min(int(max(percent, 0) * bins // 100), bins - 1)] += 1
    tallest = max([*counts, 1])
    slot = (frame.right - frame.left) / bins
    bars = []
    for index, count in enumerate(counts):
        height = (frame.bottom - frame.top) * count / tallest
        low, high = index * 100 // bins, (index + 1) * 100 // bins
        bars.append(
            Bar(
                label=f"{low}–{high}%",  # noqa: RUF001 - an en dash between two numbers
                value=str(count) if count else "",
                x=round(frame.left + index * slot + 2, 1),
                y=round(frame.bottom - height, 1),
                width=round(slot - 4, 1),
                height=round(height, 1),
            )
        )
    ticks = [Tick(f"{index * 100 // bins}", round(frame.left + index * slot, 1)) for index in range(bins + 1)]
    return BarChart(frame=frame, bars=bars, ticks=ticks)


def category_bars(averages: list[tuple[str, float]]) -> BarChart:
    """Horizontal bars of each category's class average, in percent of its points, the lowest one marked."""
    rows = CATEGORY_ROW * len(averages)
    frame = Frame(width=400, height=rows + 26, left=150, top=4, right=350, bottom=4 + rows)
    lowest = min((percent for _, percent in averages), default=None)
    bars = [
        Bar(
            label=title,
            value=f"{percent:.0f}%",
            x=frame.left,
            y=frame.top + index * CATEGORY_ROW + 4,
            width=round((frame.right - frame.left) * max(min(percent, 100), 0) / 100, 1),
            height=CATEGORY_ROW - 8,
            lowest=percent == lowest and len(averages) > 1,
        )
        for index, (title, percent) in enumerate(averages)
    ]
    ticks = [Tick(f"{value}%", frame.left + (frame.right - frame.left) * value / 100) for value in (0, 50, 100)]
    return BarChart(frame=frame, bars=bars, ticks=ticks)


def _number(value: float) -> str:
    """A tick value without a trailing .0."""
    return f"{value:g}"
