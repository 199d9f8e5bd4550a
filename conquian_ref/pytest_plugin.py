"""The pytest integration's documented home: `from conquian_ref.pytest_plugin import conformance`.

It lives in conquian_ref.conformance.pytest_plugin."""

from .conformance.pytest_plugin import conformance

__all__ = ["conformance"]
