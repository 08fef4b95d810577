"""The telemetry chart marks the first round whose queues differ, which the queue sizes alone can hide."""

from __future__ import annotations

from grader.report.charts import game_comparison
from grader.results import Telemetry

SIZES = [[28, 26], [27, 27], [28, 26], [29, 25]]


def test_the_chart_marks_the_round_the_grader_found_from_the_queues():
    """Equal sizes, but the grader saw the queues part after round 2: the chart says round 2"""
    telemetry = Telemetry(deck=["1"] * 54, max_rounds=10, reference=SIZES, student=SIZES, first_difference=2)
    comparison = game_comparison(telemetry)
    assert comparison.first_difference == 2
    assert comparison.reference_at == [27, 27] and comparison.student.marker is not None


def test_without_the_queues_the_chart_falls_back_to_the_sizes():
    """No queue comparison recorded (an older results.json): the first round whose sizes differ"""
    student = [[28, 26], [27, 27], [26, 28], [25, 29]]
    telemetry = Telemetry(deck=["1"] * 54, max_rounds=10, reference=SIZES, student=student)
    assert game_comparison(telemetry).first_difference == 3
