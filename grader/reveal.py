"""Reveal after the deadline: from grading.toml's [reveal] after, the moment the student view starts showing
hidden tests in full (their inputs and the lines that replay them), as the instructor view does.

The one place that turns the setting into a date: a date of its own, or "due", the [late] section's due date.
"""

from __future__ import annotations

from datetime import UTC, datetime
from .config import Config, ConfigError
from .late import EXAMPLE, parse_moment


def reveal_date(config: Config) -> datetime | None:
    """When hidden tests are revealed, or None for never; ConfigError in one line if "due" names no due date."""
    after = config.reveal_after
    if not after:
        return None
    if after != "due":
        moment = parse_moment(after)
        if moment is None:  # load_config refuses it first; a Config built by hand is refused here
            raise ConfigError(f"reveal.after = {after!r} from {_origin(config)} must be an ISO 8601 date and time "
                              'with an offset, e.g. "2026-12-15T09:00-05:00"')
        return moment
    due = config.late.due if config.late is not None else None
    if due is None:
        raise ConfigError(f'reveal.after = "due" from {_origin(config)}, but no [late] due date is set: add '
                          f'`due = "{EXAMPLE}"` under [late], or give reveal.after a date of its own')
    return due


def revealed(config: Config, now: datetime | None = None) -> bool:
    """Whether the student view shows hidden tests in full at `now` (default: this moment): the date has come."""
    date = reveal_date(config)
    if date is None:
        return False
    moment = now if now is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        raise ValueError("now must carry a UTC offset")
    return moment >= date


def _origin(config: Config) -> str:
    """Where reveal.after came from, for the message."""
    return config.sources.get("reveal.after", "the settings")
