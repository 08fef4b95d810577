"""Similarity across a class, past classes and the reference: winnowed fingerprints of each student's own code.

fingerprints.py tokenizes and winnows (never running a line), compare.py scores students against one another with
the starter's and the class's common code discounted, run.py reads a class as `grade` does and writes
similarity.json, and page.py renders similarity.html, the instructor's alone. docs/similarity.md says what a score
means: evidence for a person to weigh, never a verdict.
"""

from __future__ import annotations

from .run import NotCompared, SimilarityReport, compare_class, findings_json, similarity_run, write_findings

__all__ = ["NotCompared", "SimilarityReport", "compare_class", "findings_json", "similarity_run", "write_findings"]
