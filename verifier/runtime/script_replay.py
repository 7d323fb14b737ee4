"""Replay of whole scripts: run the user's *unmodified* scripts on Spark with a counterexample's files.

Why a subprocess per run: a script builds its own session, reads ``sys.argv``, prints, may call
``sys.exit`` or die with an exception -- exactly what is being compared -- so it runs as users run it,
``python script.py ARGS``, in a fresh interpreter (a JVM start each, seconds: fine for a replay, kept
rare in tests). The runner around it (``_BOOTSTRAP``) only sets ``sys.argv``, forces the master (so a
script's own ``.master("local[*]")`` cannot change the partitioning the model assumed), runs the file
with ``runpy`` as ``__main__`` and reports how it ended (exception type, exit code) in a side file; the
script's code is not touched.

Inputs are written to a temporary folder: one text file per ``textFile`` source (its lines, one per
line), ``sys.argv[i]`` pointing at it; a relative literal path (``sc.textFile("data/in.txt")``) is
created under the folder, which is the script's working directory (an absolute literal path cannot be
redirected without editing the script: a ``ReplayError``). ``saveAsTextFile`` directories are read back
(their part files, in order).

``observe_run`` turns a run into an outcome shaped like the interpreter's (a tuple with one item per
sink, or an ``ErrorOutcome``), cutting stdout into the sinks' lines with the interpreter's prediction
(how many lines each sink printed) as a guide, so that the two compare with ``outcomes_equal``:
lines printed in a loop over an unsorted ``collect()`` and part files as bags, sorted output as a
sequence modulo ties. The partitioning Spark uses for a written file or a literal, with which the
interpreter predicts the very run that is replayed, is the core's (``verifier.core.script_inputs``).
"""

from __future__ import annotations

import ast as pyast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from frontend.script.rdd_argv import SCRIPT_NAME
from frontend.script.rdd_program import DIR_FILE, ScriptProgram, listed_dirs, mask_line
from sparklite.values import (
    Bag,
    ErrorOutcome,
    Outcome,
    observe_like,
    observe_value,
    outcomes_equal,
)
from verifier.core.script_inputs import ReplayError, lines_file_text, predict
from verifier.runtime.progress import remaining, say

__all__ = [
    "ScriptRun", "ScriptReplay", "ScriptJob", "run_script", "run_scripts", "replay_many", "replay_scripts",
    "observe_run", "write_inputs",
]

DEFAULT_MASTER = "local[2]"
_TIMEOUT = 600.0
_EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::\s|:?$)")


@dataclass(frozen=True)
class ScriptRun:
    """How one run of a script ended. ``stdout_lines`` are the lines it printed (without newlines);
    ``files_written`` maps each directory the script wrote with ``saveAsTextFile`` (relative to the
    working directory) to the lines of its part files, in part order; ``exception`` is the type of an
    uncaught exception (the Python exception behind a failed Spark job), ``exit_code`` the code given to
    ``sys.exit`` (0 when the script ended normally, 1 after an exception)."""

    stdout_lines: tuple[str, ...]
    files_written: Mapping[str, tuple[str, ...]]
    exception: str | None
    exit_code: int
    stderr: str = field(default="", repr=False)
    seconds: float = 0.0


@dataclass(frozen=True)
class ScriptReplay:
    """Both scripts run on the same files: their runs, their observations (shaped like the interpreter's
    outcomes), whether they differ, and whether each agrees with the interpreter's prediction."""

    left: ScriptRun
    right: ScriptRun
    left_outcome: Outcome
    right_outcome: Outcome
    differs: bool
    left_agrees: bool
    right_agrees: bool
    left_reference: Outcome = None
    right_reference: Outcome = None
    seconds: float = 0.0


# --- running a script ------------------------------------------------------------------------------

_BOOTSTRAP = r"""
import contextlib, json, os, runpy, sys, traceback
_jobs_path = os.environ.pop("SPARKEQ_SCRIPT_JOBS")
_master = os.environ.pop("SPARKEQ_FORCE_MASTER", None)
if _master:
    try:
        from pyspark import SparkConf
        from pyspark.sql import SparkSession
    except ImportError:
        pass
    else:
        _set_master = SparkConf.setMaster
        SparkConf.setMaster = lambda self, value: _set_master(self, _master)
        _builder_master = SparkSession.Builder.master
        SparkSession.Builder.master = lambda self, value: _builder_master(self, _master)
_views = []  # the running job's catalog tables: created as temp views in every session it gets
try:
    from pyspark.sql import SparkSession as _Session
except ImportError:
    pass
else:
    _get_or_create = _Session.Builder.getOrCreate

    def _with_views(self):
        session = _get_or_create(self)
        for _view in _views:
            session.read.schema(_view["ddl"]).json(_view["path"]).createOrReplaceTempView(_view["name"])
        return session

    _Session.Builder.getOrCreate = _with_views
    # a relative path is the script's own working directory's; the JVM (started once for every job)
    # would resolve it against the first job's: make it absolute where the script reads or writes
    from pyspark.sql import readwriter as _readwriter

    def _abs(p):
        if isinstance(p, str) and p and ":" not in p and not os.path.isabs(p):
            return os.path.abspath(p)
        return p

    for _klass in (_readwriter.DataFrameReader, _readwriter.DataFrameWriter):
        for _meth in ("load", "csv", "json", "text", "parquet", "orc", "save"):
            if _meth in vars(_klass):
                def _absolute(self, *a, _orig=vars(_klass)[_meth], **k):
                    if a:
                        a = (_abs(a[0]), *a[1:])
                    if "path" in k:
                        k["path"] = _abs(k["path"])
                    return _orig(self, *a, **k)
                setattr(_klass, _meth, _absolute)
    # df.explain() is an excluded diagnostic (docs/scripts.md): its plan goes to stderr, not compared
    import importlib as _importlib
    for _mod in ("pyspark.sql.dataframe", "pyspark.sql.classic.dataframe"):
        try:
            _cls = _importlib.import_module(_mod).DataFrame
        except (ImportError, AttributeError):
            continue
        if "explain" in vars(_cls):
            def _to_stderr(self, *a, _orig=vars(_cls)["explain"], **k):
                with contextlib.redirect_stdout(sys.stderr):
                    return _orig(self, *a, **k)
            _cls.explain = _to_stderr
        # so is df.describe().show() / df.summary().show(): the statistics table goes to stderr
        for _name in ("describe", "summary"):
            if _name in vars(_cls):
                def _marked(self, *a, _orig=vars(_cls)[_name], **k):
                    _stats = _orig(self, *a, **k)
                    _stats._sparkeq_diagnostic = True
                    return _stats
                setattr(_cls, _name, _marked)
        if "show" in vars(_cls):
            def _show(self, *a, _orig=vars(_cls)["show"], **k):
                if getattr(self, "_sparkeq_diagnostic", False):
                    with contextlib.redirect_stdout(sys.stderr):
                        return _orig(self, *a, **k)
                return _orig(self, *a, **k)
            _cls.show = _show
with open(_jobs_path, encoding="utf-8") as _fh:
    _jobs = json.load(_fh)
_path0 = list(sys.path)
for _job in _jobs:
    _outcome = {"exception": None, "module": None, "text": None, "mro": [], "exit_code": 0}
    os.chdir(_job["cwd"])
    _views[:] = _job["views"]
    sys.argv = [_job["script"], *_job["argv"]]
    sys.path[:] = [os.path.dirname(os.path.abspath(_job["script"])), *_path0]
    _out = open(_job["stdout"], "w", encoding="utf-8")
    _err = open(_job["stderr"], "w", encoding="utf-8")
    with _out, _err:
        with contextlib.redirect_stdout(_out), contextlib.redirect_stderr(_err):
            try:
                runpy.run_path(_job["script"], run_name="__main__")
            except SystemExit as _e:
                _code = _e.code
                if _code is None:
                    _code = 0
                elif not isinstance(_code, int):
                    print(_code, file=sys.stderr)
                    _code = 1
                _outcome["exit_code"] = _code
            except BaseException as _e:
                _outcome.update(exception=type(_e).__name__, module=type(_e).__module__, text=str(_e),
                                mro=[c.__name__ for c in type(_e).__mro__ if c.__module__ == "builtins"],
                                exit_code=1)
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                try:  # the next script starts from a fresh context (the JVM is reused)
                    from pyspark import SparkContext
                    if SparkContext._active_spark_context is not None:
                        SparkContext._active_spark_context.stop()
                except Exception:
                    pass
    with open(_job["result"], "w", encoding="utf-8") as _fh:
        json.dump(_outcome, _fh)
"""


@dataclass(frozen=True)
class ScriptJob:
    """One run of ``run_scripts``: the script, its arguments (without the script name) and its working
    directory; ``views``: catalog tables (``spark.table(name)``) created as temp views in the session
    the script builds, each ``(name, DDL schema, JSON-lines file of its rows)``."""

    path: str
    argv: tuple[str, ...]
    cwd: str
    views: tuple[tuple[str, str, str], ...] = ()


def run_script(path: str, argv: Sequence[str], master: str = DEFAULT_MASTER, cwd: str | None = None,
               timeout: float = _TIMEOUT) -> ScriptRun:
    """Run the unmodified script ``path`` as ``python path ARGV`` (``argv`` without the script name) in a
    fresh interpreter, on Spark at ``master``, in the working directory ``cwd`` (default: a new temporary
    folder). Its session is created by the script itself; the master is forced through
    ``PYSPARK_SUBMIT_ARGS`` and by pinning ``SparkConf.setMaster``/``Builder.master`` to it."""
    if cwd is not None:
        return run_scripts([ScriptJob(path, tuple(argv), cwd)], master, timeout)[0]
    with tempfile.TemporaryDirectory(prefix="sparkeq-script-") as own:
        return run_scripts([ScriptJob(path, tuple(argv), own)], master, timeout)[0]


def run_scripts(jobs: Sequence[ScriptJob], master: str = DEFAULT_MASTER, timeout: float = _TIMEOUT
                ) -> list[ScriptRun]:
    """Run several unmodified scripts one after the other in one fresh interpreter (one JVM start for
    all): each as ``__main__`` with its own ``sys.argv``, working directory and captured stdout/stderr;
    whatever SparkContext a script leaves running is stopped before the next one starts."""
    log_conf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
    with tempfile.TemporaryDirectory(prefix="sparkeq-runs-") as scratch:
        specs = []
        for i, job in enumerate(jobs):
            specs.append({"script": os.path.abspath(job.path), "argv": list(job.argv),
                          "cwd": os.path.abspath(job.cwd), "stdout": os.path.join(scratch, f"{i}.out"),
                          "views": [{"name": n, "ddl": d, "path": os.path.abspath(f)}
                                    for n, d, f in job.views],
                          "stderr": os.path.join(scratch, f"{i}.err"),
                          "result": os.path.join(scratch, f"{i}.json")})
        jobs_path = os.path.join(scratch, "jobs.json")
        with open(jobs_path, "w", encoding="utf-8") as fh:
            json.dump(specs, fh)
        env = dict(os.environ)
        env.update(
            PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1",
            PYSPARK_SUBMIT_ARGS=(f"--master {master} --conf spark.ui.enabled=false "
                                 "--conf spark.ui.showConsoleProgress=false "
                                 f'--driver-java-options "-Dlog4j2.configurationFile=file:{log_conf}" '
                                 "pyspark-shell"),
            SPARKEQ_FORCE_MASTER=master, SPARKEQ_SCRIPT_JOBS=jobs_path, PYTHONIOENCODING="utf-8",
        )
        befores = [_snapshot(s["cwd"]) for s in specs]
        start = time.monotonic()
        timeout = remaining(timeout)  # within the run's --replay-timeout
        say(f"running {len(jobs)} script run(s) in a new Python process on Spark ({master}; it starts its "
            "own JVM)")
        try:
            proc = subprocess.run([sys.executable, "-c", _BOOTSTRAP], env=env, capture_output=True, text=True,
                                  encoding="utf-8", errors="replace", timeout=timeout, cwd=scratch)
        except subprocess.TimeoutExpired:
            raise ReplayError(f"the scripts did not finish within {timeout:.0f} s") from None
        seconds = time.monotonic() - start
        out: list[ScriptRun] = []
        for spec, before in zip(specs, befores, strict=True):
            if not os.path.exists(spec["result"]):
                tail = (proc.stderr.strip().splitlines() or [""])[-1]
                raise ReplayError(f"the script {spec['script']} ended without reporting (exit status "
                                  f"{proc.returncode}): {tail}")
            with open(spec["result"], encoding="utf-8") as fh:
                outcome = json.load(fh)
            with open(spec["stdout"], encoding="utf-8", errors="replace") as fh:
                stdout = fh.read().split("\n")
            with open(spec["stderr"], encoding="utf-8", errors="replace") as fh:
                stderr = fh.read()
            if stdout and stdout[-1] == "":
                stdout.pop()
            exception = _exception_kind(outcome) if outcome["exception"] is not None else None
            out.append(ScriptRun(tuple(stdout), _written(spec["cwd"], before), exception,
                                 int(outcome["exit_code"]), stderr, seconds / max(1, len(specs))))
        return out


def _exception_kind(outcome: Mapping[str, Any]) -> str:
    """The Python exception behind a script's uncaught exception: its own type, or the exception a
    Spark worker reported inside PySpark's (or py4j's) wrapper."""
    text = outcome.get("text") or ""
    marker = "Traceback (most recent call last):"
    module = outcome.get("module") or ""
    if marker in text:
        tail = text[text.rindex(marker) + len(marker):]
        for line in tail.splitlines()[1:]:
            if not line or line[0].isspace():
                continue
            match = _EXC_LINE.match(line)
            if match:
                return _builtin_name(match.group(1).rsplit(".", 1)[-1])
    if module.startswith("pyspark"):
        mro = outcome.get("mro") or []
        builtin = [m for m in mro if m not in ("object", "BaseException", "Exception")]
        if builtin:
            return builtin[0]
    return _builtin_name(outcome["exception"])


def _builtin_name(name: str) -> str:
    import builtins

    if name.startswith("PySpark") and isinstance(getattr(builtins, name[7:], None), type):
        return name[7:]
    return name


def _snapshot(root: str) -> set[str]:
    out = set()
    for dirpath, _, files in os.walk(root):
        for f in files:
            out.add(os.path.relpath(os.path.join(dirpath, f), root))
    return out


def _written(root: str, before: set[str]) -> dict[str, tuple[str, ...]]:
    """Directories holding part files written during the run (Spark's ``saveAsTextFile`` layout), each
    with the lines of its part files in part order."""
    out: dict[str, tuple[str, ...]] = {}
    for dirpath, _, files in os.walk(root):
        parts = sorted(f for f in files if f.startswith("part-") and not f.endswith(".crc"))
        if not parts and "_SUCCESS" not in files:
            continue
        rel = os.path.relpath(dirpath, root)
        if all(os.path.join(rel, f) in before for f in parts) and parts:
            continue
        lines: list[str] = []
        for f in parts:
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
            lines.extend(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") if text else [])
        out[rel] = tuple(lines)
    return out


# --- replaying a counterexample --------------------------------------------------------------------


def write_inputs(sp: ScriptProgram, inputs: Mapping[str, Any], workdir: str, script_path: str | None = None
                 ) -> list[str]:
    """Write the files of ``inputs`` (by ``sp``'s parameter names) under ``workdir`` and return the
    script's arguments (``sys.argv[1:]``): text sources as files, argument sources as they are, the
    directories ``saveAsTextFile`` writes as fresh paths. A text source's file is named after its path
    expression, so two scripts reading ``sys.argv[1]`` read the same file."""
    argv: list[str | None] = [None] * (sp.argv_length - 1)

    def put(index: int | None, value: str) -> None:
        if index is None:
            return
        if argv[index - 1] is not None and argv[index - 1] != value:
            raise ReplayError(f"sys.argv[{index}] is used both as {argv[index - 1]!r} and {value!r}")
        argv[index - 1] = value

    named = {s.argv_index: inputs[s.param] for s in sp.sources if s.kind == "argument" and s.path_too
             and isinstance(inputs.get(s.param), str)}  # sys.argv[i] both a path and a value: its text
    dirs = listed_dirs(sp)  # read from a directory the script lists: one file in it (rdd_files)

    def write(target: str, text: str, as_dir: bool) -> None:
        if as_dir:
            os.makedirs(target, exist_ok=True)
            target = os.path.join(target, DIR_FILE)
        with open(target, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)

    for s in sp.sources:
        if s.kind == "text":
            text = lines_file_text(list(inputs[s.param]))
            if s.argv_index in named:  # absolute: Spark's JVM may have started in another directory
                target = os.path.join(os.path.abspath(workdir), named[s.argv_index])
                write(target, text, s.param in dirs)
                put(s.argv_index, target)
                continue
            if s.literal_path is not None:
                if os.path.isabs(s.literal_path):
                    raise ReplayError(f"{s.loc}: the script reads the absolute path {s.literal_path!r}: a "
                                      "replay "
                                      "cannot redirect it without editing the script (use sys.argv or a "
                                      "relative path)")
                target = os.path.join(workdir, s.literal_path)
            else:
                target = os.path.join(workdir, f"input_{s.argv_index}.txt")
            os.makedirs(os.path.dirname(target) or workdir, exist_ok=True)
            write(target, text, s.param in dirs)
            put(s.argv_index, target)
        elif s.kind == "argument" and s.path_too:
            continue  # given as the path of the file (or directory) named after it, above or below
        elif s.kind == "argument":
            value = inputs[s.param]
            if not isinstance(value, str):
                raise ReplayError(f"the argument {s.path} must be a string, not {value!r}")
            put(s.argv_index, value)
    for k in sp.sinks:
        if k.kind == "save_text":
            if k.literal_path is not None and os.path.isabs(k.literal_path):
                raise ReplayError(f"{k.loc}: the script writes the absolute path {k.literal_path!r}")
            if k.argv_index in named:
                put(k.argv_index, os.path.join(os.path.abspath(workdir), named[k.argv_index]))
            elif k.argv_index is not None:
                put(k.argv_index, os.path.join(workdir, f"output_{k.argv_index}"))
    return [a if a is not None else f"unused_{i + 1}" for i, a in enumerate(argv)]


def saved_dir(sp: ScriptProgram, index: int, argv: Sequence[str], workdir: str) -> str:
    """Where the ``save_text`` sink of output item ``index`` writes, relative to ``workdir``. (Items are
    not positions in ``sp.sinks``: consecutive prints before it share one item.)"""
    k = next(k for k in sp.sinks if k.index == index and k.kind == "save_text")
    path = k.literal_path if k.literal_path is not None else argv[k.argv_index - 1]  # type: ignore[operator]
    return os.path.relpath(os.path.join(workdir, path), workdir)


def observe_run(sp: ScriptProgram, run: ScriptRun, reference: Outcome, argv: Sequence[str], workdir: str
                ) -> Outcome:
    """``run`` observed like the interpreter's ``reference`` outcome for the same inputs: an
    ``ErrorOutcome`` for an uncaught exception, else one item per sink. Stdout is cut into the sinks'
    lines by the counts ``reference`` predicts (a mismatch shows as a different observation)."""
    if run.exception is not None:
        return ErrorOutcome(run.exception)
    has_exit = any(k.kind == "exit" for k in sp.sinks)
    if run.exit_code != 0 and not has_exit:
        return ErrorOutcome(f"SystemExit({run.exit_code})")
    items_count = len({k.index for k in sp.sinks})
    refs = reference if isinstance(reference, tuple) and len(reference) == items_count else None
    lines = list(run.stdout_lines)
    if SCRIPT_NAME in sp.masks:  # sys.argv[0]: the absolute path the runner gives the script (rdd_argv)
        own = os.path.abspath(sp.filename)
        lines = [line.replace(own, SCRIPT_NAME) for line in lines]
    lines = [mask_line(line, sp.masks) for line in lines] if sp.masks else lines
    if any(s.path_too for s in sp.sources):  # a printed path: its text is the name, as in the model
        prefix = os.path.join(os.path.abspath(workdir), "")
        lines = [line.replace(prefix, "") for line in lines]
    items: list[Outcome] = []
    pos = 0
    seen: set[int] = set()
    for k in sp.sinks:
        if k.index in seen:  # consecutive prints share one text item
            continue
        seen.add(k.index)
        ref = refs[k.index] if refs is not None else None
        if k.kind == "exit":
            items.append(run.exit_code)
            continue
        if k.kind == "save_text":
            rel = saved_dir(sp, k.index, argv, workdir)
            written = run.files_written.get(rel)
            items.append(ErrorOutcome("no output written") if written is None
                         else Bag.of(observe_value(x) for x in written))
            continue
        count = _line_count(k.observed, ref)
        chunk = lines[pos:pos + count]
        pos += count
        if k.observed == "elements" and (k.prefix or k.suffix) and chunk:
            line = chunk[0]
            if not (line.startswith(k.prefix) and line.endswith(k.suffix)
                    and len(line) >= len(k.prefix) + len(k.suffix)):
                items.append(("unparsed line", line))
                continue
            chunk = [line[len(k.prefix):len(line) - len(k.suffix)]]
        items.append(_observe_chunk(k.observed, chunk, ref))
    if pos < len(lines):  # more printed than the model predicts
        items.append(("extra output", tuple(lines[pos:])))
    return tuple(items)


def _line_count(observed: str, ref: Outcome) -> int:
    if observed == "text":  # the exact text printed, each line with its newline
        return ref.count("\n") if isinstance(ref, str) else 1
    if observed == "elements":
        return 1
    elements = _elements(ref)
    return sum(e.count("\n") + 1 if isinstance(e, str) else 1 for e in elements)


def _elements(ref: Outcome) -> list[Any]:
    from sparklite.values import ListValue, Sorted

    if isinstance(ref, Bag):
        return list(ref.items)
    if isinstance(ref, Sorted):
        out = [x for g in ref.groups for x in g.items]
        if ref.taken is not None and ref.groups:
            out = out[:len(out) - len(ref.groups[-1].items) + ref.taken]
        return out
    if isinstance(ref, ListValue):
        return list(ref.items)
    return []


def _observe_chunk(observed: str, chunk: list[str], ref: Outcome) -> Outcome:
    if observed == "text":
        return "".join(f"{line}\n" for line in chunk)
    if observed == "elements":
        if not chunk:
            return ErrorOutcome("missing line")
        try:
            value = _parse_repr(chunk[0])
        except ValueError:
            return ("unparsed line", chunk[0])
        return observe_like(value, ref) if ref is not None else observe_value(value)
    return observe_like(list(chunk), ref) if ref is not None else Bag.of(chunk)


def _parse_repr(text: str) -> Any:
    """The value whose ``repr`` Python printed (lists, tuples, dicts, strings, numbers, ``nan``/``inf``,
    ``defaultdict(<class 'int'>, {...})``), read without evaluating anything."""
    m = re.match(r"^defaultdict\(<class '\w+'>, (.*)\)$", text)
    if m:
        text = m.group(1)
    try:
        tree = pyast.parse(text, mode="eval").body
    except SyntaxError:
        raise ValueError(text) from None

    def value(n: pyast.AST) -> Any:
        if isinstance(n, pyast.Constant):
            return n.value
        if isinstance(n, pyast.Name) and n.id in ("nan", "inf"):
            return float(n.id)
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.USub):
            v = value(n.operand)
            return -v
        if isinstance(n, pyast.List):
            return [value(e) for e in n.elts]
        if isinstance(n, pyast.Tuple):
            return tuple(value(e) for e in n.elts)
        if isinstance(n, pyast.Dict):
            return {value(k): value(v)  # type: ignore[arg-type]
                    for k, v in zip(n.keys, n.values, strict=True)}
        raise ValueError(text)
    return value(tree)


def replay_scripts(left: ScriptProgram, right: ScriptProgram, inputs: Mapping[str, Any],
                   references: tuple[Outcome, Outcome] | None = None, master: str = DEFAULT_MASTER
                   ) -> ScriptReplay:
    """Run both unmodified scripts (``left.filename``, ``right.filename``) on the same input files.
    ``inputs`` are by ``left``'s parameter names; ``right`` must be aligned with ``left``
    (``frontend.script.rdd_script.align_sources``: the same inputs in the same order). ``references`` are the
    interpreter's outcomes of both programs on ``inputs`` (default: ``predict``)."""
    return replay_many([(left, right, inputs, references)], master)[0]


def replay_many(pairs: Sequence[tuple[ScriptProgram, ScriptProgram, Mapping[str, Any],
                                      tuple[Outcome, Outcome] | None]],
                master: str = DEFAULT_MASTER) -> list[ScriptReplay]:
    """``replay_scripts`` for several pairs, all runs in one interpreter (one JVM start)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sparkeq-replay-") as root:
        plans = []
        for i, (left, right, inputs, references) in enumerate(pairs):
            right_inputs = {rp.name: inputs[lp.name]
                            for lp, rp in zip(left.program.params, right.program.params, strict=True)}
            refs = references if references is not None \
                else (predict(left, inputs), predict(right, right_inputs))
            sides = []
            for side, sp, ins, ref in (("left", left, inputs, refs[0]),
                                       ("right", right, right_inputs, refs[1])):
                wd = os.path.join(root, f"{i}-{side}")
                os.makedirs(wd)
                sides.append((sp, ref, write_inputs(sp, ins, wd), wd))
            plans.append(sides)
        jobs = [ScriptJob(sp.filename, tuple(argv), wd) for sides in plans for sp, _, argv, wd in sides]
        runs = iter(run_scripts(jobs, master))
        out = []
        seconds = (time.monotonic() - start) / max(1, len(plans))
        for sides in plans:
            done = []
            for sp, ref, argv, wd in sides:
                run = next(runs)
                done.append((run, observe_run(sp, run, ref, argv, wd), ref))
            (lrun, lobs, lref), (rrun, robs, rref) = done
            out.append(ScriptReplay(lrun, rrun, lobs, robs, not outcomes_equal(lobs, robs),
                                    outcomes_equal(lobs, lref), outcomes_equal(robs, rref), lref, rref,
                                    seconds))
    return out
