"""The exports' text templates (workflow, scripts, conftest), rendered with jinja2 from templates/."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jinja2


@cache
def _environment() -> jinja2.Environment:
    """Templates beside the code; no HTML here, so no HTML escaping: values go through the yaml or python filter."""
    environment = jinja2.Environment(loader=jinja2.PackageLoader("grader.export"), autoescape=False,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                                     trim_blocks=True, lstrip_blocks=True)
    environment.filters["yaml"] = _yaml_string
    environment.filters["python"] = repr
    return environment


def _yaml_string(value: Any) -> str:
    """A YAML double-quoted scalar (a JSON string is one), so no value can break the document."""
    return json.dumps(str(value))


def render(name: str, **values: Any) -> str:
    """The template called name, rendered with values."""
    return _environment().get_template(name).render(**values)
