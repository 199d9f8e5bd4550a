"""Package discovery, kept beside pyproject.toml (which holds everything else).

Why a setup.py at all: the package list must come from the tree, so that a new module or
sub-package ships with no edit, and three data-only packages are mapped from folders outside
conquian_ref/ (the single sources the repository keeps at its root). pyproject.toml can either
discover packages or list them, not both; discovery cannot see a mapped folder. So discovery and
the mapping are done here, in two lines, and nothing lists a module by hand.

Which files ship: every file MANIFEST.in grafts that lies in a package folder
(`include-package-data`, pyproject.toml); tests/test_packaging.py compares the built wheel with
the tree.
"""

from setuptools import find_namespace_packages, setup

# The data the reference ships, read by conquian_ref/spec/shipped.py from the installed package.
MAPPED = {"conquian_ref._schema": "schema", "conquian_ref._corpus": "scenarios", "conquian_ref._rules": "docs/rules"}

setup(
    # Namespace discovery: the data-only folders (spec/profiles, tools/book/assets and templates)
    # are packages too, so their files ship as package data.
    packages=find_namespace_packages(include=["conquian_ref", "conquian_ref.*"], exclude=["*.__pycache__"]) + list(MAPPED),
    package_dir=MAPPED,
)
