"""The pytest plugin (entry point `pytest11`) and the pytest integration's documented home.

Installed with conquian-ref, pytest loads this module in every run; it only adds the
`--conquian-*` options, and stays inert unless `--conquian-impl` is given: then the corpus is
collected as one test item per scenario, named by its id (conquian_ref.conformance.pytest_plugin,
imported only then). `from conquian_ref.pytest_plugin import conformance` is the other way in:
a test function of one's own module (docs/implementers.md has both).
"""

from __future__ import annotations

OPTIONS = (
    ("--conquian-impl", {"metavar": "IMPL", "help": "run the conformance corpus against IMPL (a command, or python:MODULE:FACTORY)"}),
    ("--conquian-profile", {"metavar": "PROFILE", "help": "only the scenarios of this profile"}),
    ("--conquian-known-failures", {"metavar": "FILE", "help": "known failures (YAML): strict xfail, so a fixed one is noticed"}),
    ("--conquian-validate-messages", {"action": "store_true", "help": "check every protocol message against schema/protocol.schema.json"}),
    ("--conquian-corpus", {"metavar": "DIR", "help": "the scenario folder (default: the corpus shipped with conquian-ref)"}),
    ("--conquian-timeout", {"metavar": "SECONDS", "type": float, "default": None, "help": "seconds to wait for an answer"}),
)


def pytest_addoption(parser):
    group = parser.getgroup("conquian", "conquian-ref conformance corpus")
    for flag, settings in OPTIONS:
        group.addoption(flag, dest=_dest(flag), **settings)


def pytest_configure(config):
    if config.getoption("conquian_impl", None):
        import pytest

        from .conformance.pytest_plugin import CorpusPlugin
        from .engine.errors import ConquianError
        from .tools.mutants import house_rules, house_rules_named  # the library that names a failure's house rule, as in check

        plugin = CorpusPlugin(config, house_rules())  # its options checked first
        try:
            house_rules_named(plugin.known)  # a house rule the library lacks is a usage error, as in check
        except ConquianError as exc:
            raise pytest.UsageError(f"conquian: --conquian-known-failures: {exc}") from None
        config.pluginmanager.register(plugin, "conquian-corpus")
        return
    given = [flag for flag, settings in OPTIONS[1:] if config.getoption(_dest(flag), None) not in (None, False)]
    if given:  # never a silent run that checks nothing
        import pytest

        raise pytest.UsageError(
            f"{given[0]} is given without --conquian-impl, so no scenario would run. If your ini file's addopts "
            f"give --conquian-impl, pytest did not read it: a path given as '{given[0]} PATH' outside the project "
            f"moves pytest's rootdir (now {config.rootpath}); write '{given[0]}=PATH' or pass --rootdir"
        )


def _dest(flag: str) -> str:
    return flag[2:].replace("-", "_")


def __getattr__(name: str):
    # `conformance` is imported on first use, so that a pytest run without --conquian-impl
    # does not load the engine at all.
    if name == "conformance":
        import functools

        from .conformance.pytest_plugin import conformance
        from .tools.mutants import house_rules

        return functools.wraps(conformance)(functools.partial(conformance, hypotheses=house_rules()))
    raise AttributeError(name)


__all__ = ["conformance", "pytest_addoption", "pytest_configure"]
