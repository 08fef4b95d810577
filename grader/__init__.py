"""war-grader: runs hidden suites against sandboxed student submissions and scores them."""

__version__ = "0.1.0"
