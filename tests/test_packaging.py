"""What `pip install` gives is the source tree, file for file.

The sdist and the wheel are built as a release builds them (`python -m build`: the sdist, then
the wheel from the unpacked sdist, so nothing from a stale build/ folder leaks in), offline with
the build tools of the test extra (--no-isolation), into a temporary folder. Then:

- the wheel holds every file of conquian_ref/ (modules, templates, assets, profiles), schema/ as
  conquian_ref/_schema, scenarios/ as conquian_ref/_corpus and docs/rules/ as conquian_ref/_rules,
  byte for byte, and nothing else beside its .dist-info; the expected list is drawn from the tree
  here, so a module or an asset added tomorrow is expected with no edit;
- its metadata carries pyproject.toml's version and the two entry points (the command, the
  pytest plugin);
- the sdist holds every file git tracks, except .gitignore.

.ci/wheel-smoke installs the wheel into a fresh environment and runs every command from there.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from configparser import ConfigParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Folders outside conquian_ref/ that the package ships, and the package folder they ship as.
MAPPED = {"schema": "conquian_ref/_schema", "scenarios": "conquian_ref/_corpus", "docs/rules": "conquian_ref/_rules"}


def _shippable(path: Path) -> bool:
    # Bytecode is the only thing of the tree that must not ship: it is written as tests run.
    return path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}


def expected_wheel_files() -> dict[str, Path]:
    """Path inside the wheel -> the source file it must be a copy of."""
    expected = {p.relative_to(ROOT).as_posix(): p for p in (ROOT / "conquian_ref").rglob("*") if _shippable(p)}
    for source, packaged in MAPPED.items():
        for p in (ROOT / source).rglob("*"):
            if _shippable(p):
                expected[f"{packaged}/{p.relative_to(ROOT / source).as_posix()}"] = p
    return expected


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, f"python -m build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_expected_list_is_not_empty():
    # A wrong ROOT or glob would make the comparison below vacuous.
    expected = expected_wheel_files()
    for needed in (
        "conquian_ref/cli.py",
        "conquian_ref/tools/mutants/__init__.py",
        "conquian_ref/tools/book/assets/suits.svg",
        "conquian_ref/spec/profiles/torno-cisneros-v1.yaml",
        "conquian_ref/_schema/scenario.schema.json",
        "conquian_ref/_corpus/README.md",
        "conquian_ref/_rules/core.md",
    ):
        assert needed in expected, needed
    assert sum(name.startswith("conquian_ref/_corpus/") and name.endswith(".yaml") for name in expected) > 400


def test_the_wheel_holds_the_source_tree_file_for_file(dist):
    expected = expected_wheel_files()
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = [n for n in wheel.namelist() if not n.endswith("/")]
        shipped = {n for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
        missing = sorted(set(expected) - shipped)
        extra = sorted(shipped - set(expected))
        assert not missing, f"{len(missing)} file(s) of the tree not in the wheel, first: {missing[:10]}"
        assert not extra, f"{len(extra)} file(s) in the wheel not in the tree, first: {extra[:10]}"
        assert len(names) == len(set(names)), "a file is twice in the wheel"
        differ = [n for n in sorted(expected) if wheel.read(n) != expected[n].read_bytes()]
        assert not differ, f"{len(differ)} file(s) differ from the tree, first: {differ[:10]}"


def test_the_wheel_metadata_has_the_version_and_the_entry_points(dist):
    version = pyproject()["project"]["version"]
    assert dist["wheel"].name.startswith(f"conquian_ref-{version}-")
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        info = f"conquian_ref-{version}.dist-info"
        metadata = wheel.read(f"{info}/METADATA").decode()
        entry_points = ConfigParser()
        entry_points.read_string(wheel.read(f"{info}/entry_points.txt").decode())
    assert f"\nVersion: {version}\n" in metadata
    assert entry_points["console_scripts"]["conquian-ref"] == "conquian_ref.cli:main"
    assert entry_points["pytest11"]["conquian_ref"] == "conquian_ref.pytest_plugin"


def source_tree() -> set[str]:
    """The files git tracks, as they are on disk now. Tracked only: an untracked file may be the
    passing output of another test running beside this one (a ./fuzz-out/, a ./book/)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the source tree's list comes from git")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    return {name for name in listed if name and _shippable(ROOT / name)}


def test_the_sdist_holds_the_source_tree(dist):
    tree = source_tree() - {".gitignore"}
    assert "pyproject.toml" in tree and "setup.py" in tree
    with tarfile.open(dist["sdist"]) as sdist:
        # every name is <name>-<version>/<path>
        shipped = {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile()}
        missing = sorted(tree - shipped)
        assert not missing, f"{len(missing)} file(s) of the tree not in the sdist, first: {missing[:10]}"
        pkg_info = sdist.extractfile(next(m for m in sdist.getmembers() if m.name.endswith("/PKG-INFO") and m.name.count("/") == 1))
        version = pyproject()["project"]["version"]
        assert f"\nVersion: {version}\n" in io.TextIOWrapper(pkg_info, encoding="utf-8").read()
