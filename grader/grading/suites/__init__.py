"""The hidden suites: pytest files run by the trusted grading process against a sandboxed submission."""
