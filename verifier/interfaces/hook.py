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
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from verifier.interfaces.cli_options import (
    HOOK_REPLAY_TIMEOUT,
    add_hook_arguments,
    output_format,
    progress_line,
)
from verifier.interfaces.config import NO_CONFIG, Config, ConfigError

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
    """What to compare and how. ``rev`` is the old side; the new side is ``to_ref`` when set (a branch
    in CI: ``rev`` is then the merge base of ``from_ref`` and ``to_ref``), else the index when
    ``staged`` is set, else the working tree. ``replay``/``master``/``timeout`` are handed to
    ``verifier.check`` for each function (``timeout`` per function, ``None`` for check's default);
    every replay of the run shares one Spark session and ``replay_timeout`` seconds. ``strict`` and
    ``unsupported`` are the policy (``decision``); ``schemas`` are ``--schema`` values for every function
    and ``config`` the ``[tool.sparkeq]`` they came with."""

    rev: str = "HEAD"
    staged: bool = False
    strict: bool = False
    replay: bool = True
    master: str = "local[2]"
    timeout: float | None = None
    effort: float | None = None  # check's --effort: scales the deterministic budgets (None: 1)
    replay_timeout: float = HOOK_REPLAY_TIMEOUT
    unsupported: str = "block"
    from_ref: str | None = None
    to_ref: str | None = None
    schemas: tuple[str, ...] = ()
    config: Config = NO_CONFIG

    @property
    def against(self) -> str:
        """The new side in the JSON report: ``index``, ``working-tree`` or ``ref`` (``to_ref``)."""
        return "ref" if self.to_ref else "index" if self.staged else "working-tree"

    @property
    def shown_rev(self) -> str:
        """The old side as reports name it: the revision, or ``A...B`` for a branch."""
        return f"{self.from_ref}...{self.to_ref}" if self.to_ref else self.rev


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
    loaded: tuple[Any, Any] | None = field(default=None, compare=False, repr=False)  # for the replay
    line: int = 0  # of the function's def in the new version (0: unknown), for SARIF locations

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
    try:
        fmt = output_format(args)
    except ValueError as exc:
        print(f"sparkeq: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    try:
        options = options_of(args)
        if args.explain:
            return explain(args.files, options)
        reports = run_hook(args.files, options)
    except (HookError, ConfigError) as exc:
        fallback = HookOptions(rev=args.rev or "HEAD", staged=args.staged)
        if fmt == "json":
            _print_json([], fallback, EXIT_INPUT_ERROR, error=str(exc))
        elif fmt == "sarif":
            _print_sarif([])
        print(f"sparkeq hook: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    # input errors: one located line each on stderr, as `sparkeq check` does; before the replay, which
    # points descriptor 2 at the JVM's log while a JVM starts (a replay that times out then may leave it so)
    for report in reports:
        if report.result is not None and report.result.verdict == "error":
            print(report.result.reason, file=sys.stderr, flush=True)
    if options.replay:
        reports = _replay_all(reports, options)
    status = exit_status(reports, strict=options.strict, unsupported=options.unsupported)
    if fmt == "json":
        _print_json(reports, options, status)
    elif fmt == "sarif":
        _print_sarif(reports)
    else:
        _print_human(reports, options, status)
    return status


def options_of(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> HookOptions:
    """The run's options: the command line first, then pre-commit's environment (a ``--from-ref`` /
    ``--to-ref`` run), then ``[tool.sparkeq]`` (found from the first file, or the current directory),
    then the defaults."""
    from verifier.interfaces.config import find, load

    env = os.environ if env is None else env
    if args.no_config:
        config = NO_CONFIG
    elif args.config:
        if not os.path.isfile(args.config):
            raise ConfigError(f"{args.config}:1:1: no such file")
        config = load(args.config) or NO_CONFIG
    else:
        config = find(args.files[0] if args.files else None)
    from_ref, to_ref = args.from_ref, args.to_ref
    pre_commit = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    if from_ref is None and to_ref is None and all(pre_commit):
        from_ref, to_ref = env["PRE_COMMIT_FROM_REF"], env["PRE_COMMIT_TO_REF"]
    if (from_ref is None) != (to_ref is None):
        raise HookError("--from-ref and --to-ref go together")
    if to_ref is not None and args.rev is not None:
        raise HookError("--rev cannot be combined with --from-ref/--to-ref")

    def pick(flag: Any, configured: Any, default: Any) -> Any:
        return flag if flag is not None else configured if configured is not None else default

    return HookOptions(
        rev=args.rev or "HEAD", staged=args.staged and to_ref is None,
        strict=pick(args.strict, config.strict, False), replay=pick(args.replay, config.replay, True),
        master=args.master, timeout=pick(args.timeout, config.timeout, None),
        effort=getattr(args, "effort", None),
        replay_timeout=pick(args.replay_timeout, config.replay_timeout, HOOK_REPLAY_TIMEOUT),
        unsupported=pick(args.unsupported, config.unsupported, "block"), from_ref=from_ref, to_ref=to_ref,
        schemas=tuple(args.schema), config=config)


def decision(report: FunctionReport, options: HookOptions) -> str | None:
    """The policy, in one place: ``"blocks"`` or ``"allowed"`` for a checked function, None for one
    that was not checked. Not equivalent always blocks; an input error in the new version (a syntax
    error, a construct sparkeq does not support, a changed signature) blocks unless ``unsupported`` is
    ``allow``; unknown blocks only under ``strict``; proved is allowed."""
    if report.status != "checked" or report.result is None:
        return None
    verdict = report.result.verdict
    if verdict == "not_equivalent":
        return "blocks"
    if verdict == "error":
        return "allowed" if options.unsupported == "allow" and report.function is not None else "blocks"
    if verdict == "unknown":
        return "blocks" if options.strict else "allowed"
    return "allowed"


def exit_status(reports: Iterable[FunctionReport], strict: bool, unsupported: str = "block") -> int:
    """1 if anything is not equivalent, else 3 on a blocking input error, else 2 for unknown under
    strict, else 0: the exit status of ``decision``'s policy."""
    options = HookOptions(strict=strict, unsupported=unsupported)
    blocking = {r.result.verdict for r in reports
                if r.result is not None and decision(r, options) == "blocks"}
    if "not_equivalent" in blocking:
        return EXIT_NOT_EQUIVALENT
    if "error" in blocking:
        return EXIT_INPUT_ERROR
    if "unknown" in blocking:
        return EXIT_UNKNOWN_STRICT
    return EXIT_OK


def _replay_all(reports: list[FunctionReport], options: HookOptions) -> list[FunctionReport]:
    """Replay every counterexample of the run on Spark after all verdicts are known: one Spark session
    for all of them, ``options.replay_timeout`` seconds in all, each step said on stderr."""
    from verifier import replay_counterexamples

    todo = [i for i, r in enumerate(reports) if r.result is not None and r.loaded is not None
            and (r.result.verdict == "not_equivalent" or "pending" in r.result.stats)]
    if not todo:
        return reports
    items = [(reports[i].result, *reports[i].loaded) for i in todo]  # type: ignore[misc]
    progress_line(f"replaying {len(items)} counterexample(s) on Spark (at most {options.replay_timeout:g} s; "
                  "--no-replay skips this)")
    done = replay_counterexamples(items, replay_timeout=options.replay_timeout, progress=progress_line,
                                  master=options.master, timeout=options.timeout)
    out = list(reports)
    for i, result in zip(todo, done, strict=True):
        out[i] = dataclasses.replace(out[i], result=result)
    return out


# ---------------------------------------------------------------------------------------------------
# The hook
# ---------------------------------------------------------------------------------------------------


def run_hook(files: Sequence[str], options: HookOptions, cwd: str | None = None, checking: bool = True
             ) -> list[FunctionReport]:
    """Check every changed pipeline function of ``files`` (default: the changed ``.py`` files); with
    ``checking`` False only say which would be checked (``--explain``)."""
    git = _Git(cwd or os.getcwd())
    for ref in (options.from_ref, options.to_ref):
        if ref is not None and not git.resolves(ref):
            raise HookError(f"unknown revision '{ref}'")
    if options.to_ref is not None:  # a branch: its changes since it left from_ref, as pre-commit diffs
        assert options.from_ref is not None
        options = dataclasses.replace(options, rev=git.merge_base(options.from_ref, options.to_ref))
    has_old = git.resolves(options.rev)
    if not has_old and options.rev != "HEAD":
        raise HookError(f"unknown revision '{options.rev}'")
    # HEAD that does not resolve is an unborn branch (the first commit): every function is new.
    paths = [git.relative(f) for f in files] if files else git.changed_files(options, has_old)
    reports: list[FunctionReport] = []
    seen: set[str] = set()
    for rel in paths:
        if rel in seen or not rel.endswith(".py") or not options.config.selects(os.path.join(git.top, rel)):
            continue
        seen.add(rel)
        display = git.display(rel)
        old = git.show(f"{options.rev}:{rel}") if has_old else None
        if options.to_ref is not None:
            new = git.show(f"{options.to_ref}:{rel}")
        else:
            new = git.show(f":{rel}") if options.staged else git.read_worktree(rel)
        reports.extend(_file_reports(display, old, new, options, os.path.join(git.top, rel), checking))
    return reports


def _file_reports(display: str, old_bytes: bytes | None, new_bytes: bytes | None,
                  options: HookOptions, path: str | None = None, checking: bool = True
                  ) -> list[FunctionReport]:
    old_label = f"{display}@{options.from_ref or options.rev}"
    new_label = f"{display}@{options.to_ref}" if options.to_ref else display
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
        note = f"the {options.shown_rev} version cannot be read ({exc.text})"

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
        if not checking:
            reports.append(FunctionReport(display, name, "checked", old_label, new_label, None,
                                          because or None, line=new_mod.line(name)))
            continue
        schemas = options.config.schemas_for(path, name) + options.schemas
        loaded: tuple[Any, Any] | None = None
        try:
            result, loaded = _check_function(name, old_src, old_label, new_src, new_label, options, schemas)
        except Exception as exc:  # noqa: BLE001 - one function's crash must not hide the others' verdicts
            result = _internal_error(exc)
        reports.append(FunctionReport(display, name, "checked", old_label, new_label, result,
                                      because or None, loaded, new_mod.line(name)))
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
                    options: HookOptions, schemas: tuple[str, ...] = ()
                    ) -> tuple[Result, tuple[LoadedProgram, LoadedProgram] | None]:
    """Translate both versions separately (so an input error is attributed to its version) and check
    (without replay: ``_replay_all`` replays every counterexample of the run at the end). Returns the
    result and the two loaded programs (None when one could not be loaded).

    An input error only in the new version is the commit's fault: verdict ``error`` (exit 3). When the
    old version cannot be analysed there is nothing to prove the new one equal to, so the verdict is
    ``unknown`` (exit 2 under --strict): blocking commits for code that was never analysable would
    make the hook unusable on a real code base.
    """
    from sparklite.errors import InputError
    from verifier import check
    from verifier.core.loading import load_schemas
    from verifier.core.result import Result

    try:
        tables = load_schemas(schemas) if schemas else None
    except InputError as exc:
        return _error(str(exc)), None

    def load(source: str, label: str) -> LoadedProgram | InputError:
        try:
            return _load_source(source, name, label, tables)
        except InputError as exc:
            return exc

    old_lp, new_lp = load(old_src, old_label), load(new_src, new_label)
    if isinstance(new_lp, InputError):
        if isinstance(old_lp, InputError):
            return Result("unknown", reason=f"neither version can be analysed by sparkeq: {new_lp}"), None
        return _error(str(new_lp)), None
    if isinstance(old_lp, InputError):
        return Result("unknown", reason="the old version cannot be analysed by sparkeq, so there is nothing "
                      f"to compare the new one with: {old_lp}"), None
    result = check(old_lp, new_lp, replay=False, master=options.master, timeout=options.timeout,
                   effort=options.effort, config=False)
    return result, (old_lp, new_lp)


def _internal_error(exc: Exception) -> Result:
    """A bug in sparkeq while checking one function: ``unknown`` (like a method's internal error in
    ``check``), so the other functions are still reported; --strict makes it block the commit."""
    from verifier.core.result import Result

    return Result("unknown",
                  reason=f"internal error in sparkeq (please report it): {type(exc).__name__}: {exc}")


def _load_source(source: str, function: str, label: str, schemas: Any = None) -> LoadedProgram:
    """loading's source-string form, with a file name so messages point at ``path@REV:line:col``.

    The public spec forms (a string, a ``(source, function)`` pair) name the file ``<input>``; the
    hook needs each version's label, so it uses the loader's named-source entry point."""
    from verifier.core.loading import load_python_source

    return load_python_source(source, function, label, schemas)


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

    def merge_base(self, a: str, b: str) -> str:
        """Where branch ``b`` left ``a`` (what ``pre-commit run --from-ref a --to-ref b`` diffs
        against); ``a`` itself when the two share no history."""
        out = self._run(["merge-base", a, b])
        return os.fsdecode(out).strip() if out else a

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
            if options.to_ref is not None:
                args += [options.rev, options.to_ref, "--"]
            else:
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
        "rev": options.shown_rev,
        "against": options.against,
        "exit_status": status,
        "error": error,
        "results": [r.to_json() for r in reports],
    }
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _print_sarif(reports: Sequence[FunctionReport]) -> None:
    """A SARIF 2.1.0 log: one result per checked function that is not proved, at its new ``def``."""
    from verifier import __version__
    from verifier.interfaces.sarif import Finding, log

    findings = []
    for r in reports:
        if r.status != "checked" or r.result is None:
            continue
        fn = f"::{r.function}" if r.function else ""
        findings.append(Finding(r.result, f"{r.old}{fn}", f"{r.new}{fn}", r.file, r.line or None, r.function))
    sys.stdout.write(json.dumps(log(findings, __version__), indent=2) + "\n")
    sys.stdout.flush()


_HEADS = {"equivalent": ("proved equivalent", "green"), "not_equivalent": ("NOT EQUIVALENT", "bold red"),
          "unknown": ("NOT PROVED (unknown)", "bold yellow"),
          "error": ("INPUT ERROR in the new version (see the message on stderr)", "bold red")}


def _print_human(reports: Sequence[FunctionReport], options: HookOptions, status: int,
                 console: Console | None = None) -> None:
    """One line per checked or skipped function (``file::function: verdict -- blocks the commit`` or
    ``-- allowed``, easy to grep), the full report of ``render`` for a counterexample or an unknown
    verdict, then one closing line that says what happens to the commit and, when it is blocked, how to
    commit anyway (``SKIP=sparkeq``). The words come from ``decision``, the same function that sets the
    exit status, so the report cannot say "allowed" of a commit the exit status blocks."""
    from rich.console import Console
    from rich.text import Text

    from verifier.interfaces.render import render

    console = console or Console(highlight=False)
    counts: dict[str, int] = {}
    blocked: list[str] = []
    allowed_unproved: list[str] = []
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
        label, style = _HEADS[res.verdict]
        line = head + Text(label, style=style)
        if res.verdict == "equivalent":
            line += Text(f" (method {res.method}, {res.seconds:.2f} s)", style="dim")
        verdict = decision(r, options)
        if verdict == "blocks":
            blocked.append(where)
            line += Text(f" -- blocks the {_noun(options)}", style="bold red")
        elif res.verdict != "equivalent":
            allowed_unproved.append(where)
            line += Text(f" -- allowed ({_why_allowed(res.verdict)})", style="yellow")
        console.print(line)
        if res.verdict == "equivalent":
            for assumption in res.assumptions:  # never "every input" silently (issue 24)
                console.print(Text(f"  assuming: {assumption}", style="dim"))
        if r.note:
            console.print(Text(f"  {r.note}", style="dim"))
        if res.verdict in ("not_equivalent", "unknown"):
            fn = f"::{r.function}" if r.function else ""
            if res.reason and "(details: --explain)" in res.reason:  # the hook's --explain is its policy
                res = dataclasses.replace(res, reason=res.reason.replace(
                    "(details: --explain)", "(details: `sparkeq check OLD.py NEW.py --explain`)"))
            render(res, console, left=f"{r.old}{fn}", right=f"{r.new}{fn}", names=side_names(options))
    console.print(Text(_summary(counts, options, status), style="dim"))
    console.print(Text(_verdict_line(blocked, allowed_unproved, options), style="bold red" if blocked
                       else "bold yellow" if allowed_unproved else "bold green"))


def _noun(options: HookOptions) -> str:
    return "commit" if options.staged else "change"


def _why_allowed(verdict: str) -> str:
    return {"unknown": "unknown does not block without --strict",
            "error": "unsupported = allow"}.get(verdict, "")


def _verdict_line(blocked: Sequence[str], allowed_unproved: Sequence[str], options: HookOptions) -> str:
    """The one closing message: blocked (with the SKIP hint, every time) or allowed (saying what was
    not proved)."""
    noun = _noun(options)
    if blocked:
        return (f"sparkeq: the {noun} is BLOCKED by {len(blocked)} function(s): {', '.join(blocked)}. "
                "If the change of behaviour is intended, commit with `SKIP=sparkeq git commit ...` "
                "(pre-commit) or `git commit --no-verify` (a plain git hook).")
    if allowed_unproved:
        return (f"sparkeq: the {noun} is allowed, but {len(allowed_unproved)} changed function(s) could not "
                f"be proved equivalent: {', '.join(allowed_unproved)} (--strict blocks them).")
    return f"sparkeq: the {noun} is allowed."


def side_names(options: HookOptions) -> tuple[str, str]:
    """What the two versions are called in reports: the revision and the new side (never LEFT/RIGHT)."""
    if options.to_ref:
        return options.from_ref or options.rev, options.to_ref
    return options.rev, "staged" if options.staged else "working tree"


def _summary(counts: dict[str, int], options: HookOptions, status: int) -> str:
    against = options.to_ref if options.to_ref else "the index" if options.staged else "the working tree"
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
    return f"sparkeq hook ({options.shown_rev} vs {against}): " + "; ".join(parts) + f"; exit {status}"


# ---------------------------------------------------------------------------------------------------
# --explain
# ---------------------------------------------------------------------------------------------------


def explain(files: Sequence[str], options: HookOptions) -> int:
    """``sparkeq hook --explain``: the settings in force and where they come from, the policy, and the
    functions the hook would check (and why), without checking any. Exit 0 (3 on a hook error)."""
    config = options.config
    new_side = (f"the revision {options.to_ref}" if options.to_ref else
                "the index (what `git commit` records)" if options.staged else "the working tree")
    old_side = (f"the merge base of {options.from_ref} and {options.to_ref}" if options.to_ref
                else f"the revision {options.rev}")
    out = [
        "sparkeq hook: what it does",
        f"  compares {old_side} (old) with {new_side} (new)",
        f"  configuration: {config.path or 'none ([tool.sparkeq] in pyproject.toml, docs/config.md)'}",
        f"  per-function check time limit: {options.timeout or 60:g} s (a hard cap; the verdicts' budgets "
        f"are deterministic, effort {options.effort or 1:g}: --effort)",
        "  replay of counterexamples on Spark: "
        + (f"on, at most {options.replay_timeout:g} s for the whole run (JVM start included); past it "
           "the verdict stays, 'not replayed: timed out'" if options.replay else "off (--no-replay)"),
        f"  schemas: {len(config.schemas) + len(options.schemas)} for every function, "
        f"{len(config.function_schemas)} function(s) with their own",
    ]
    if config.include or config.exclude:
        out.append(f"  paths: include {list(config.include) or 'all'}, exclude {list(config.exclude)}")
    out += [
        "policy (the exit status and the closing message follow it):",
        "  not equivalent (a counterexample) -> BLOCKS (exit 1)",
        "  input error in the new version (syntax error, unsupported construct, changed parameters) -> "
        + ("allowed, reported (unsupported = allow)" if options.unsupported == "allow"
           else "BLOCKS (exit 3)"),
        "  unknown (not proved, not refuted; also an old version sparkeq cannot read) -> "
        + ("BLOCKS (exit 2, --strict)" if options.strict else "allowed, reported (--strict blocks it)"),
        "  proved equivalent, unchanged, new or deleted functions -> allowed",
        "  a blocked commit that is meant to change behaviour: SKIP=sparkeq git commit ...",
    ]
    reports = run_hook(files, dataclasses.replace(options, replay=False), checking=False)
    out.append(f"functions ({len(reports)}):")
    for r in reports:
        where = f"{r.file}::{r.function}" if r.function else r.file
        what = {"checked": "would be checked" + (f" ({r.note})" if r.note else " (its code changed)"),
                "unchanged": "unchanged, not checked", "new": "new, nothing to compare",
                "deleted": "deleted, nothing to compare"}[r.status]
        out.append(f"  {where}: {what}")
    print("\n".join(out))
    return EXIT_OK
