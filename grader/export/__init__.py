"""Exports: the class's other homes (a GitHub Classroom template, a Gradescope autograder)."""
