"""`python -m conquian_ref.adapter`: the reference engine behind the conformance protocol.

The documented entry point; the adapter itself is conquian_ref.conformance.adapter."""

import sys

from .conformance.adapter import ReferenceAdapter, main, serve

__all__ = ["ReferenceAdapter", "main", "serve"]

if __name__ == "__main__":
    sys.exit(main())
