"""``--format sarif``: verdicts as a SARIF 2.1.0 log, so code-scanning tools (GitHub's among them) show
them as annotations on the changed pipeline.

Why one result per pair that is *not* proved: a SARIF result is a finding. ``equivalent`` is no finding;
``not_equivalent`` is an error (a counterexample exists), ``error`` is an error (the new version cannot be
analysed), ``unknown`` is a warning (nothing proved, nothing refuted). Each result points at the new
side's function (the code a reviewer would change) and carries the verdict's JSON
(``Result.to_json()``, docs/json.md) in its property bag, so no information of ``--json`` is lost.

Only the standard library: the log is a plain dict that ``json.dumps`` writes. The format is checked
against the SARIF 2.1.0 JSON schema in tests/test_sarif.py.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.core.result import Result

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/sparkeq/sparkeq"

RULES = (
    ("not-equivalent", "error", "The two versions compute different results",
     "sparkeq found inputs on which the old and the new version of the program differ (a counterexample "
     "the reference interpreter confirmed, replayed on Spark when replay is on)."),
    ("unknown", "warning", "The new version is not proved equivalent",
     "sparkeq could neither prove the two versions equivalent nor find a counterexample; the message "
     "gives the reason."),
    ("input-error", "error", "sparkeq cannot analyse the new version",
     "A syntax error, an unsupported construct or a type error in the new version (file:line:col)."),
)
_RULE_OF = {"not_equivalent": "not-equivalent", "unknown": "unknown", "error": "input-error"}
_LOCATED = re.compile(r"^(?P<file>[^\n:]+?)(?:@[^:\n]+)?:(?P<line>\d+):(?P<col>\d+):")


@dataclass(frozen=True)
class Finding:
    """One checked pair for the log: its verdict, the two sides as the user named them and where the
    new side lives (``file`` relative to the working directory or the repository, ``line`` of its
    function; None when unknown)."""

    result: Result
    left: str
    right: str
    file: str | None = None
    line: int | None = None
    function: str | None = None


def log(findings: Sequence[Finding], version: str) -> dict[str, Any]:
    """The SARIF log: one run of sparkeq, one result per finding that is not ``equivalent``."""
    results = [_result(f) for f in findings if f.result.verdict in _RULE_OF]
    rules = [{"id": f"sparkeq/{rid}", "name": rid.replace("-", " ").title().replace(" ", ""),
              "shortDescription": {"text": short}, "fullDescription": {"text": full},
              "defaultConfiguration": {"level": level}, "helpUri": f"{INFORMATION_URI}#readme"}
             for rid, level, short, full in RULES]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "sparkeq", "version": version, "semanticVersion": version,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }


def _result(finding: Finding) -> dict[str, Any]:
    res = finding.result
    rule = _RULE_OF[res.verdict]
    index = [r[0] for r in RULES].index(rule)
    level = RULES[index][1]
    file, line, col = finding.file, finding.line, 1
    located = _LOCATED.match(res.reason or "") if res.verdict == "error" else None
    if located:  # an input error points at its own place
        file, line, col = located["file"], int(located["line"]), int(located["col"])
    out: dict[str, Any] = {
        "ruleId": f"sparkeq/{rule}",
        "ruleIndex": index,
        "level": level,
        "message": {"text": _message(finding)},
        "properties": {"left": finding.left, "right": finding.right, "sparkeq": res.to_json()},
    }
    if file:
        physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(file)}}
        if line:
            physical["region"] = {"startLine": max(line, 1), "startColumn": max(col, 1)}
        location: dict[str, Any] = {"physicalLocation": physical}
        if finding.function:
            location["logicalLocations"] = [{"name": finding.function, "kind": "function"}]
        out["locations"] = [location]
    out["partialFingerprints"] = {"sparkeqPair/v1": f"{finding.left}|{finding.right}"}
    return out


def _message(finding: Finding) -> str:
    res = finding.result
    head = {"not_equivalent": "NOT EQUIVALENT", "unknown": "NOT PROVED (unknown)",
            "error": "INPUT ERROR"}[res.verdict]
    text = f"{finding.right}: {head} compared with {finding.left}"
    if res.reason:
        text += f". {res.reason}"
    cx = res.counterexample
    if cx is not None:
        text += (f". Counterexample: inputs {_short(cx.inputs)}; {finding.left} gives {_short(cx.left)}, "
                 f"{finding.right} gives {_short(cx.right)}"
                 + (" (replayed on Spark)" if cx.replayed_on_spark else " (not replayed on Spark)"))
    return text


def _short(value: Any, limit: int = 300) -> str:
    import json

    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _uri(path: str) -> str:
    """A relative URI reference with ``/`` (SARIF viewers resolve it against the repository root)."""
    from urllib.parse import quote

    rel = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    return quote(rel.replace(os.sep, "/"))


def function_line(spec: str) -> tuple[str | None, int | None, str | None]:
    """Where the program of a spec string is: its file, the line of its ``def`` (read with ``ast``,
    never run) and the function's name (None when not found, e.g. a script or source text)."""
    path, _, function = spec.partition("::")
    if "\n" in path or not os.path.isfile(path):
        return None, None, None
    if not function or not path.endswith(".py"):
        return path, 1, function or None
    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return path, 1, function
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            return path, node.lineno, function
    return path, 1, function
