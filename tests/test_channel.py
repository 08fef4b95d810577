"""The line to the worker: what a hostile call costs the grader (its deadline, its restarts), and no more."""

from __future__ import annotations

import pytest

from grader.sandbox.channel import StudentTimeout
from grader.sandbox.isolation import LEVELS

from sandbox_probe import available, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures

STRONGEST = next((level for level in LEVELS if available(level)), "plain")
"""The strongest sandbox level that works here."""


def test_an_endless_loop_is_stopped_within_a_few_milliseconds_of_its_deadline(tmp_path, runtime):
    """The clock is read more often as a deadline nears: three endless loops with a 0.5 s deadline are each
    charged less than 0.53 s (read every 0.1 s, each could run up to 0.6 s)"""
    client = probe_client(tmp_path, runtime, STRONGEST, call_timeout=0.5)
    charged = []
    try:
        for _ in range(3):
            with pytest.raises(StudentTimeout, match="within 0.5 s"):
                run(client, "while True:\n    pass")
            charged.append(client.last_charged)
    finally:
        client.stop()
    assert all(0.5 <= seconds < 0.53 for seconds in charged), charged
