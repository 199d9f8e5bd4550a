"""`python -m conquian_ref`: the `conquian-ref` command line."""

import sys

from .cli import main

sys.exit(main())
