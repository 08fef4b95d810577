"""Part E: the students' own tests, run in the sandbox against two wheats and the chaffs, and judged."""
