"""`python -m grader` is `war-grader`."""

import sys

from .cli import main

sys.exit(main())
