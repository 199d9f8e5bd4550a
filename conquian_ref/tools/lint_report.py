"""`conquian-ref lint --json FILE` and `--junit FILE`: the problems as data and as JUnit XML.

JSON: `{"tool": "lint", "version", "corpus", "corpus_fingerprint", "scenarios": N read, "files":
[...], "problems": [{file, line, field, message}], "ok"}`: the corpus is the folder linted (the
bundled corpus by default, or the one folder given, or --corpus), its fingerprint that of
spec/fingerprint.py (check's reports give the same); both null and "unknown" when the files
linted are not one corpus folder. JUnit: one `<testsuite name="lint">` holding one `<testcase>` per
scenario file (its name the file, so a test keeps its identity when a title changes), with a
`<failure>` listing that file's problems, and the totals on `<testsuites>` too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..conformance.reports import xml_text
from ..spec.problem import Problem


def lint_json(files: list[str], read: int, problems: list[Problem], corpus: Path | None = None) -> dict:
    from .. import __version__
    from ..spec.fingerprint import corpus_fingerprint

    return {
        "tool": "lint",
        "version": __version__,
        "corpus": str(corpus) if corpus else None,
        "corpus_fingerprint": corpus_fingerprint(corpus) if corpus else "unknown",
        "scenarios": read,
        "files": files,
        "problems": [{"file": p.file, "line": p.line, "field": p.field, "message": p.message} for p in problems],
        "ok": not problems,
    }


def lint_junit(files: list[str], problems: list[Problem]) -> str:
    by_file: dict[str, list[Problem]] = {}
    for p in problems:
        by_file.setdefault(p.file, []).append(p)
    names = files + [f for f in by_file if f not in files]  # a problem outside the files found (a bad link)
    failures = str(sum(1 for f in names if f in by_file))
    root = ET.Element("testsuites", name="conquian-ref lint", tests=str(len(names)), failures=failures, errors="0", skipped="0")
    suite = ET.SubElement(root, "testsuite", name="lint", tests=str(len(names)), failures=failures, errors="0", skipped="0")
    for name in names:
        case = ET.SubElement(suite, "testcase", classname="lint", name=xml_text(name), file=xml_text(name))
        found = by_file.get(name)
        if found:
            node = ET.SubElement(case, "failure", message=xml_text(f"{len(found)} problem(s); first: {found[0].field}: {found[0].message}"))
            node.text = xml_text("\n".join(str(p) for p in found))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
