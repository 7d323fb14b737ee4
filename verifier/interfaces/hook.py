"""``sparkeq hook``: prove that a commit's edits of PySpark pipeline functions are refactors.

For every changed ``.py`` file the hook reads the old version from git (``git show REV:path``) and the
new one from the index (``--staged``, what a pre-commit hook sees) or the working tree, finds the
pipeline functions (top-level ``def``s whose body calls RDD methods, as the frontend detects them) and
runs ``verifier.check`` on each function present in both versions whose meaning may have changed.
Nothing of the user's module is imported or executed: functions are found with ``ast`` and translated
by the frontend from source text.

A function is re-checked when its own AST changed (so pure whitespace, comment and docstring edits do
not cost a proof) or when a module-level name it uses -- a helper ``def``, a module lambda, a constant,
an import -- is bound differently, because the frontend translates a function together with those
bindings: changing ``THRESHOLD = 10`` changes every pipeline that reads it although their text is the
same.

Exit status (see docs/hook.md): 1 if any function is not equivalent; else 3 if the new version has an
input error (one located ``file:line:col: message`` line on stderr); else 2 if a function's verdict is
unknown and ``--strict`` was given; else 0. A counterexample outranks an input error elsewhere because
it is a definite finding about the commit, while the input error only blocks analysis of one function.

This module is imported whenever the CLI builds its parser, so it imports only the standard library at
module level; the verifier (Z3), the frontend and rich are loaded once there is something to check.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from verifier.interfaces.cli_options import add_hook_arguments

if TYPE_CHECKING:
    from rich.console import Console

    from verifier.core.base import LoadedProgram
    from verifier.core.result import Result

EXIT_OK = 0
EXIT_NOT_EQUIVALENT = 1
EXIT_UNKNOWN_STRICT = 2
EXIT_INPUT_ERROR = 3

Status = Literal["checked", "unchanged", "new", "deleted"]


class HookError(Exception):
    """A problem with the hook's own input (not a git repository, unknown revision, a file outside the
    repository): there is nothing sensible to check, so the hook exits 3 like any input error."""


@dataclass(frozen=True)
class HookOptions:
    """What to compare and how. ``rev`` is the old side; the new side is the index when ``staged`` is
    set, else the working tree. ``replay``/``master``/``timeout`` are handed to ``verifier.check`` for
    each function (``timeout`` per function, ``None`` for check's default)."""

    rev: str = "HEAD"
    staged: bool = False
    strict: bool = False
    replay: bool = True
    master: str = "local[2]"
    timeout: float | None = None


@dataclass(frozen=True)
class FunctionReport:
    """The outcome for one pipeline function (``function`` is None for a file-level input error).

    ``status`` says what the hook did: ``checked`` (``result`` holds the verdict), ``unchanged`` (same
    AST and same module-level bindings: not checked), ``new``/``deleted`` (only in one version: nothing
    to compare). ``old``/``new`` are the labels used as file names in messages (``path@HEAD``, ``path``).
    """

    file: str
    function: str | None
    status: Status
    old: str | None
    new: str | None
    result: Result | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "function": self.function,
            "status": self.status,
            "old": self.old,
            "new": self.new,
            "note": self.note,
            "result": self.result.to_json() if self.result is not None else None,
        }


# ---------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------


# The hook's arguments are defined in cli_options (the CLI builds every parser without importing this
# module); re-exported here for callers that build a parser around the hook.
add_arguments = add_hook_arguments


def run(args: argparse.Namespace) -> int:
    """Run the hook for parsed CLI arguments, print the report and return the exit status."""
    if args.timeout is not None and not 0 < args.timeout < float("inf"):  # also rejects nan
        print("sparkeq: --timeout must be a positive number of seconds", file=sys.stderr)
        return EXIT_INPUT_ERROR
    options = HookOptions(rev=args.rev, staged=args.staged, strict=args.strict, replay=not args.no_replay,
                          master=args.master, timeout=args.timeout)
    try:
        reports = run_hook(args.files, options)
    except HookError as exc:
        if args.json:
            _print_json([], options, EXIT_INPUT_ERROR, error=str(exc))
        print(f"sparkeq hook: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    status = exit_status(reports, strict=options.strict)
    for report in reports:  # input errors: one located line each on stderr, as `sparkeq check` does
        if report.result is not None and report.result.verdict == "error":
            print(report.result.reason, file=sys.stderr)
    if args.json:
        _print_json(reports, options, status)
    else:
        _print_human(reports, options, status)
    return status


def exit_status(reports: Iterable[FunctionReport], strict: bool) -> int:
    """1 if anything is not equivalent, else 3 on an input error, else 2 for unknown under strict."""
    verdicts = {r.result.verdict for r in reports if r.result is not None}
    if "not_equivalent" in verdicts:
        return EXIT_NOT_EQUIVALENT
    if "error" in verdicts:
        return EXIT_INPUT_ERROR
    if strict and "unknown" in verdicts:
        return EXIT_UNKNOWN_STRICT
    return EXIT_OK


# ---------------------------------------------------------------------------------------------------
# The hook
# ---------------------------------------------------------------------------------------------------


def run_hook(files: Sequence[str], options: HookOptions, cwd: str | None = None) -> list[FunctionReport]:
    """Check every changed pipeline function of ``files`` (default: the changed ``.py`` files)."""
    git = _Git(cwd or os.getcwd())
    has_old = git.resolves(options.rev)
    if not has_old and options.rev != "HEAD":
        raise HookError(f"unknown revision '{options.rev}'")
    # HEAD that does not resolve is an unborn branch (the first commit): every function is new.
    paths = [git.relative(f) for f in files] if files else git.changed_files(options, has_old)
    reports: list[FunctionReport] = []
    seen: set[str] = set()
    for rel in paths:
        if rel in seen or not rel.endswith(".py"):
            continue
        seen.add(rel)
        display = git.display(rel)
        old = git.show(f"{options.rev}:{rel}") if has_old else None
        new = git.show(f":{rel}") if options.staged else git.read_worktree(rel)
        reports.extend(_file_reports(display, old, new, options))
    return reports


def _file_reports(display: str, old_bytes: bytes | None, new_bytes: bytes | None,
                  options: HookOptions) -> list[FunctionReport]:
    old_label, new_label = f"{display}@{options.rev}", display
    try:
        new_src = _decode(new_bytes, new_label)
        new_mod = _Module.parse(new_src, new_label) if new_src is not None else _Module.empty()
    except _LocatedError as exc:
        return [FunctionReport(display, None, "checked", old_label, new_label, _error(exc.text))]
    note = None
    try:
        old_src = _decode(old_bytes, old_label)
        old_mod = _Module.parse(old_src, old_label) if old_src is not None else _Module.empty()
    except _LocatedError as exc:  # the committed version is broken: nothing to compare against
        old_src, old_mod = None, _Module.empty()
        note = f"the {options.rev} version cannot be read ({exc.text})"

    reports: list[FunctionReport] = []
    for name in sorted(old_mod.pipelines | new_mod.pipelines,
                       key=lambda n: (new_mod.line(n) or old_mod.line(n) or 0, n)):
        in_old, in_new = name in old_mod.defs, name in new_mod.defs
        if not in_old or not in_new:
            status: Status = "new" if in_new else "deleted"
            reports.append(FunctionReport(display, name, status, old_label, new_label, note=note))
            continue
        because = _changed(name, old_mod, new_mod)
        if because is None:
            reports.append(FunctionReport(display, name, "unchanged", old_label, new_label))
            continue
        assert old_src is not None and new_src is not None
        try:
            result = _check_function(name, old_src, old_label, new_src, new_label, options)
        except Exception as exc:  # noqa: BLE001 - one function's crash must not hide the others' verdicts
            result = _internal_error(exc)
        reports.append(FunctionReport(display, name, "checked", old_label, new_label, result,
                                      because or None))
    return reports


def _changed(name: str, old: _Module, new: _Module) -> str | None:
    """None if the function means the same in both versions as far as the frontend can tell; else why
    it must be checked ("" when its own code changed, else the module-level names that did)."""
    if old.fingerprint(name) != new.fingerprint(name):
        return ""
    deps = sorted((old.dependencies(name) | new.dependencies(name)) - {name})
    moved = [d for d in deps if old.bindings.get(d) != new.bindings.get(d)]
    if not moved:
        return None
    names = ", ".join(f"'{d}'" for d in moved)
    return f"re-checked: its code is unchanged, but the module-level {names} it uses changed"


def _check_function(name: str, old_src: str, old_label: str, new_src: str, new_label: str,
                    options: HookOptions) -> Result:
    """Translate both versions separately (so an input error is attributed to its version) and check.

    An input error only in the new version is the commit's fault: verdict ``error`` (exit 3). When the
    old version cannot be analysed there is nothing to prove the new one equal to, so the verdict is
    ``unknown`` (exit 2 under --strict): blocking commits for code that was never analysable would
    make the hook unusable on a real code base.
    """
    from sparklite.errors import InputError
    from verifier import check
    from verifier.core.result import Result

    def load(source: str, label: str) -> LoadedProgram | InputError:
        try:
            return _load_source(source, name, label)
        except InputError as exc:
            return exc

    old_lp, new_lp = load(old_src, old_label), load(new_src, new_label)
    if isinstance(new_lp, InputError):
        if isinstance(old_lp, InputError):
            return Result("unknown", reason=f"neither version can be analysed by sparkeq: {new_lp}")
        return _error(str(new_lp))
    if isinstance(old_lp, InputError):
        return Result("unknown", reason="the old version cannot be analysed by sparkeq, so there is nothing "
                      f"to compare the new one with: {old_lp}")
    return check(old_lp, new_lp, replay=options.replay, master=options.master, timeout=options.timeout)


def _internal_error(exc: Exception) -> Result:
    """A bug in sparkeq while checking one function: ``unknown`` (like a method's internal error in
    ``check``), so the other functions are still reported; --strict makes it block the commit."""
    from verifier.core.result import Result

    return Result("unknown",
                  reason=f"internal error in sparkeq (please report it): {type(exc).__name__}: {exc}")


def _load_source(source: str, function: str, label: str) -> LoadedProgram:
    """loading's source-string form, with a file name so messages point at ``path@REV:line:col``.

    The public spec forms (a string, a ``(source, function)`` pair) name the file ``<input>``; the
    hook needs each version's label, so it uses the loader's named-source entry point."""
    from verifier.core.loading import load_python_source

    return load_python_source(source, function, label)


def _error(text: str) -> Result:
    from verifier.core.result import Result

    return Result("error", reason=text)


class _LocatedError(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _decode(data: bytes | None, label: str) -> str | None:
    """Source bytes to text the way Python reads a module (PEP 263 coding cookie, universal newlines)."""
    if data is None:
        return None
    try:
        return importlib.util.decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        raise _LocatedError(f"{label}:1:1: cannot decode the file: {exc}") from None


# ---------------------------------------------------------------------------------------------------
# One version of a module, read with ast
# ---------------------------------------------------------------------------------------------------


@dataclass
class _Module:
    """The top-level ``def``s of one version, which of them are pipelines, and every module-level
    binding as an AST fingerprint with the names it reads (to see whether a helper or constant that a
    function uses changed)."""

    defs: dict[str, ast.FunctionDef]
    pipelines: set[str]
    bindings: dict[str, str]
    reads: dict[str, set[str]]

    @staticmethod
    def empty() -> _Module:
        return _Module({}, set(), {}, {})

    @staticmethod
    def parse(source: str, label: str) -> _Module:
        try:
            tree = ast.parse(source, filename=label)
        except SyntaxError as exc:
            raise _LocatedError(f"{label}:{exc.lineno or 1}:{exc.offset or 1}: Python syntax error: "
                                f"{exc.msg}") from None
        except ValueError as exc:  # null bytes
            raise _LocatedError(f"{label}:1:1: cannot parse the Python source: {exc}") from None
        defs = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
        bindings: dict[str, list[str]] = {}
        reads: dict[str, set[str]] = {}
        for stmt in tree.body:
            fingerprint, free = _fingerprint(stmt), _free_names(stmt)
            for bound in _bound_names(stmt):
                bindings.setdefault(bound, []).append(fingerprint)
                reads.setdefault(bound, set()).update(free)
        return _Module(defs, _pipeline_names(tree, label) & set(defs),
                       {k: "\n".join(v) for k, v in bindings.items()}, reads)

    def line(self, name: str) -> int:
        node = self.defs.get(name)
        return node.lineno if node is not None else 0

    def fingerprint(self, name: str) -> str:
        return _fingerprint(self.defs[name])

    def dependencies(self, name: str) -> set[str]:
        """Module-level names that ``name`` reads, transitively through the bindings it reads."""
        out: set[str] = set()
        todo = list(_free_names(self.defs[name]))
        while todo:
            dep = todo.pop()
            if dep in out or dep not in self.bindings:
                continue
            out.add(dep)
            todo.extend(self.reads.get(dep, ()))
        return out


def _pipeline_names(tree: ast.Module, label: str) -> set[str]:
    """The frontend's notion of a pipeline function: a top-level def whose body uses RDD methods."""
    from frontend.python.names import scan_module
    from frontend.rdd.methods import RDD_METHODS

    info = scan_module(tree, label, RDD_METHODS)
    return {name for name, d in info.defs.items() if d.uses_rdd and isinstance(d.node, ast.FunctionDef)}


def _fingerprint(node: ast.AST) -> str:
    """The node's AST without positions, comments or a function's docstring: edits that cannot change
    what the frontend translates do not count as changes."""
    if isinstance(node, ast.FunctionDef) and ast.get_docstring(node, clean=False) is not None:
        node = copy.copy(node)
        node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(node)


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    out: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.append(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.extend((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
    return out


def _free_names(node: ast.AST) -> set[str]:
    """Every name read in ``node``: an over-approximation of the module-level names it depends on,
    which at worst costs an extra check. Names it binds are *not* subtracted: a lambda parameter ``k``
    does not make another read of ``k`` local (a review found a changed constant ``k`` passing the
    hook because a lambda elsewhere in the function was called ``lambda k: ...``)."""
    return {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)}


# ---------------------------------------------------------------------------------------------------
# git
# ---------------------------------------------------------------------------------------------------


class _Git:
    """The few git plumbing calls the hook needs, run at the repository's top level. Paths are
    repository-relative with ``/`` (what ``REV:path`` wants); ``display`` makes them relative to the
    directory the user ran the hook in, so messages name files the user can open."""

    def __init__(self, cwd: str) -> None:
        self.cwd = os.path.realpath(cwd)
        top = self._run(["rev-parse", "--show-toplevel"], cwd=self.cwd)
        if top is None:
            raise HookError("not inside a git repository (the hook compares files with a git revision)")
        self.top = os.path.realpath(os.fsdecode(top).rstrip("\n"))

    def _run(self, args: list[str], cwd: str | None = None) -> bytes | None:
        try:
            proc = subprocess.run(["git", *args], cwd=cwd or self.top, capture_output=True, check=False)
        except FileNotFoundError:
            raise HookError("git is not installed or not on PATH") from None
        return proc.stdout if proc.returncode == 0 else None

    def resolves(self, rev: str) -> bool:
        if rev.startswith("-"):  # would be read as an option by git
            raise HookError(f"invalid revision '{rev}'")
        return self._run(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"]) is not None

    def show(self, spec: str) -> bytes | None:
        """A blob's bytes (``REV:path``, or ``:path`` for the index); None if the path is not there.
        ``cat-file`` is ``git show`` for blobs without textconv filters or pager settings."""
        return self._run(["cat-file", "blob", spec])

    def read_worktree(self, rel: str) -> bytes | None:
        try:
            with open(os.path.join(self.top, rel), "rb") as fh:
                return fh.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except OSError as exc:
            raise HookError(f"cannot read {self.display(rel)}: {exc}") from None

    def relative(self, file: str) -> str:
        absolute = os.path.realpath(os.path.join(self.cwd, file))
        rel = os.path.relpath(absolute, self.top)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
            raise HookError(f"{file} is not inside the repository at {self.top}")
        return rel.replace(os.sep, "/")

    def display(self, rel: str) -> str:
        return os.path.relpath(os.path.join(self.top, rel), self.cwd)

    def changed_files(self, options: HookOptions, has_old: bool) -> list[str]:
        if has_old:
            args = ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff"]
            args += ["--cached", options.rev, "--"] if options.staged else [options.rev, "--"]
        else:  # unborn branch: every tracked file is new
            args = ["ls-files", "-z"]
        out = self._run(args)
        if out is None:
            raise HookError(f"git could not list the files changed since {options.rev}")
        return [os.fsdecode(p) for p in out.split(b"\0") if p]


# ---------------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------------


def _print_json(reports: Sequence[FunctionReport], options: HookOptions, status: int,
                error: str | None = None) -> None:
    """Exactly one JSON object: the run's settings, its exit status and one entry per function."""
    from verifier.core.result import SCHEMA_VERSION

    obj = {
        "schema_version": SCHEMA_VERSION,
        "rev": options.rev,
        "against": "index" if options.staged else "working-tree",
        "exit_status": status,
        "error": error,
        "results": [r.to_json() for r in reports],
    }
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _print_human(reports: Sequence[FunctionReport], options: HookOptions, status: int,
                 console: Console | None = None) -> None:
    """One line per checked or skipped function (``file::function: ...``, easy to grep), the full
    report of ``render`` for a counterexample or an unknown verdict, and a summary line."""
    from rich.console import Console
    from rich.text import Text

    from verifier.interfaces.render import render

    console = console or Console(highlight=False)
    counts: dict[str, int] = {}
    for r in reports:
        key = r.result.verdict if r.status == "checked" and r.result is not None else r.status
        counts[key] = counts.get(key, 0) + 1
        where = f"{r.file}::{r.function}" if r.function else r.file
        head = Text(f"{where}: ", style="bold")
        if r.status in ("new", "deleted"):
            text = f"{r.status} function, nothing to compare (skipped)" + (f"; {r.note}" if r.note else "")
            console.print(head + Text(text, style="dim"))
            continue
        if r.status != "checked" or r.result is None:
            continue
        res = r.result
        if res.verdict == "equivalent":
            console.print(head + Text("proved equivalent", style="green")
                          + Text(f" (method {res.method}, {res.seconds:.2f} s)", style="dim"))
            for assumption in res.assumptions:  # never "every input" silently (issue 24)
                console.print(Text(f"  assuming: {assumption}", style="dim"))
        elif res.verdict == "error":
            console.print(head + Text("input error in the new version (see the message on stderr)",
                                      style="bold red"))
        else:
            label = "NOT EQUIVALENT" if res.verdict == "not_equivalent" else "NOT PROVED (unknown)"
            style = "bold red" if res.verdict == "not_equivalent" else "bold yellow"
            console.print(head + Text(label, style=style))
        if r.note:
            console.print(Text(f"  {r.note}", style="dim"))
        if res.verdict in ("not_equivalent", "unknown"):
            fn = f"::{r.function}" if r.function else ""
            render(res, console, left=f"{r.old}{fn}", right=f"{r.new}{fn}", names=side_names(options))
    console.print(Text(_summary(counts, options, status), style="bold" if status else "dim"))
    advice = _advice(counts, options)
    if advice:
        console.print(Text(advice, style="yellow"))


def side_names(options: HookOptions) -> tuple[str, str]:
    """What the two versions are called in reports: the revision and the new side (never LEFT/RIGHT)."""
    return options.rev, "staged" if options.staged else "working tree"


def _advice(counts: dict[str, int], options: HookOptions) -> str | None:
    """What the user can do next: a blocked commit that is meant to change behaviour is committed with
    ``SKIP=sparkeq`` (pre-commit's switch), unproved functions are allowed unless --strict."""
    lines = []
    if counts.get("not_equivalent"):
        lines.append("If this change of behaviour is intended, commit it with `SKIP=sparkeq git commit` "
                     "(pre-commit) or `git commit --no-verify` (plain git hook).")
    if counts.get("unknown"):
        lines.append(f"{counts['unknown']} changed function(s) could not be proved equivalent (see above); "
                     + ("--strict blocks the commit." if options.strict else
                        "the commit is allowed (use --strict to block it)."))
    return "\n".join(lines) or None


def _summary(counts: dict[str, int], options: HookOptions, status: int) -> str:
    against = "the index" if options.staged else "the working tree"
    checked = [(counts.get(k, 0), label) for k, label in
               (("equivalent", "equivalent"), ("not_equivalent", "not equivalent"), ("unknown", "unknown"),
                ("error", "input error(s)"))]
    total = sum(n for n, _ in checked)
    parts = [f"{total} pipeline function(s) checked"]
    if total:
        parts[0] += " (" + ", ".join(f"{n} {label}" for n, label in checked if n) + ")"
    skipped = [f"{counts[k]} {k}" for k in ("new", "deleted", "unchanged") if counts.get(k)]
    if skipped:
        parts.append("not checked: " + ", ".join(skipped))
    return f"sparkeq hook ({options.rev} vs {against}): " + "; ".join(parts) + f"; exit {status}"
