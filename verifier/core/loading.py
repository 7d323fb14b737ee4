"""Turn whatever the user handed us into a ``LoadedProgram`` without ever running the user's code.

Accepted specs (interfaces.md): ``path/to/file.py::function``, ``path/to/file.py`` (the file's single
pipeline, or the whole file when it is a script: ``docs/scripts.md``; ``file.py::main`` names a
script's entry), a ``.sl`` file, a PySpark source string (with a function name given separately, or as a
``(source, function)`` pair), a Python function object (its source is read with ``inspect``; the
function is never called), a SparkLite ``Program``, or an already loaded ``LoadedProgram``.

Every failure is an ``InputError`` with a location, so the CLI can print one line and exit 3.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import os
import re
import textwrap
from typing import Any

from sparklite.ast import Loc, Program
from sparklite.errors import InputError
from verifier.core.base import LoadedProgram


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError("no such file", Loc(path, 1, 1)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file: {exc}", Loc(path, 1, 1)) from None


def _load_sparklite_file(path: str) -> LoadedProgram:
    from sparklite.parser import parse_file

    source = _read(path)
    return LoadedProgram(parse_file(path), "sparklite", path=path, source=source)


def _load_python_file(path: str, function: str | None, schemas: Schemas = None) -> LoadedProgram:
    source = _read(path)
    df_script = _load_df_script(source, path, function, schemas)
    if df_script is not None:
        return df_script
    if function is None:
        _refuse_rdd_glue_job(source, path)
    if not _is_dataframe_source(source, function, path):
        script = _load_script(source, path, function, schemas)
        if script is not None:
            return script
    return load_python_source(source, function, path, schemas)


def _refuse_rdd_glue_job(source: str, path: str) -> None:
    """An AWS Glue job is read as a DataFrame script (``frontend.script.glue``); one with RDD code is
    refused at its first Glue name rather than read as an RDD script that does not know Glue."""
    import ast

    from frontend.script.glue import check_no_rdd_glue

    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError):
        return  # the frontends report it, located
    check_no_rdd_glue(tree, path)


def _load_script(source: str, path: str, function: str | None, schemas: Schemas) -> LoadedProgram | None:
    """``path`` as a whole script (``frontend.script.rdd_script``), or None for a file of pipeline functions.

    ``file.py`` is a script when ``is_script`` says so (a ``__main__`` block, Spark code at module
    level, or no pipeline function at all); ``file.py::name`` when ``name`` is the script's entry
    (``main``: no RDD parameters, runs driver code). A file that only looks like a script because a
    ``__main__`` block drives its pipeline functions, and whose driver code script mode cannot read, keeps
    its old meaning (its single pipeline function) with a warning saying why: checks of such files worked
    before script mode existed. Only the file's text is read; nothing is imported or run."""
    from frontend.script.rdd_script import is_script, is_script_entry, translate_script

    if function is not None:
        if not is_script_entry(source, path, function):
            return None
        sp = translate_script(source, path, entry=function)
    else:
        if not is_script(source, path):
            return None
        try:
            sp = translate_script(source, path)
        except InputError as exc:
            try:
                loaded = load_python_source(source, None, path, schemas)
            except InputError:
                raise exc from None
            note = (f"{path} is read as its pipeline function {loaded.function}: as a whole script it "
                    f"cannot be read ({exc})")
            return dataclasses.replace(loaded, warnings=(*loaded.warnings, note))
    return LoadedProgram(sp.program, "script", path=path, function=function, source=source, script=sp)


def _load_df_script(source: str, path: str, function: str | None, schemas: Schemas) -> LoadedProgram | None:
    """``path`` as a whole DataFrame script (``frontend.script.df_script``: a session, ``spark.read`` or
    ``createDataFrame`` sources, no RDD code), or None. ``file.py::main`` names its entry."""
    from frontend.script.df_script import is_df_script, translate_df_script

    if not is_df_script(source, path):
        return None
    if function is not None and not _drives(source, path, function):
        return None
    sp = translate_df_script(source, path, entry=function, schemas=schemas)
    if not sp.actions:  # only printSchema()/columns printed: nothing for the kinds to hold (an IndexError)
        raise InputError("the DataFrame script runs no Spark job (no action, show or write): script mode "
                         "compares scripts by the jobs they run", Loc(path, 1, 1))
    return LoadedProgram(sp.actions[0], "script", path=path, function=function, source=source,
                         script=sp)  # type: ignore[arg-type]


def _load_notebook(path: str, function: str | None, schemas: Schemas) -> LoadedProgram:
    """A Jupyter notebook: its code cells in order, magics skipped (``frontend.script.notebook``), read as
    a DataFrame script whose session is given. The notebook is read as JSON, never run."""
    from frontend.script.notebook import notebook_code

    source = notebook_code(_read(path), path)
    loaded = _load_df_script(source, path, function, schemas)
    if loaded is None:
        raise InputError("this notebook is not read as a DataFrame script (docs/scripts.md): it needs "
                         "DataFrame code over spark.read, createDataFrame, spark.sql or spark.table",
                         Loc(path, 1, 1))
    return loaded


def _drives(source: str, path: str, function: str) -> bool:
    """``function`` is a DataFrame script's entry: a top-level function without required parameters."""
    import ast

    tree = ast.parse(source, filename=path)
    fn = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == function), None)
    return fn is not None and len(fn.args.args) == len(fn.args.defaults)


def _load_sql_file(path: str, schemas: Schemas) -> LoadedProgram:
    """A ``.sql`` file holding one query over the tables of ``--schema``."""
    from frontend.sql.translator import translate_sql_file

    source = _read(path)
    program = translate_sql_file(source, _tables(schemas), filename=path)
    return LoadedProgram(program, "sql", path=path, source=_query_text(source))


def _query_text(source: str) -> str:
    """The query as ``spark.sql`` takes it (replay): without the trailing semicolon a file may end with."""
    return source.rstrip().rstrip(";").rstrip()


def _tables(schemas: Schemas) -> dict[str, Any]:
    """The table schemas among ``--schema`` values (scalar arguments are for DataFrame functions)."""
    from frontend.dataframe.scalars import split_declarations

    return split_declarations(schemas)[0]


def load_schemas(spec: Any) -> dict[str, Any]:
    """``--schema`` values: ``FILE.sql`` (CREATE TABLE statements) or ``NAME=DDL``, one string or many;
    or an already built ``{name: Schema}`` (or ``{name: "DDL"}``) mapping. Keys are lower-cased: Spark
    resolves table names case-insensitively."""
    from sparklite.relational.types import Schema, parse_ddl

    if not spec:
        return {}
    out: dict[str, Any] = {}
    if isinstance(spec, dict):
        for name, value in spec.items():
            where = Loc("--schema", 1, 1)
            out[name.lower()] = value if isinstance(value, Schema) else parse_ddl(value, where)
        return out
    from frontend.sql.schema import parse_schema_file, schema_option

    for item in [spec] if isinstance(spec, str | os.PathLike) else list(spec):
        item = os.fspath(item)
        scalar = _scalar_option(item) or _dynamic_frame_option(item)
        if scalar is not None:
            out[scalar[0].lower()] = scalar[1]
        elif "=" in item and not item.endswith(".sql"):
            name, schema = schema_option(item)
            out[name.lower()] = schema
        else:
            for name, schema in parse_schema_file(_read(item), item).items():
                out[name.lower()] = schema
    return out


def _scalar_option(item: str) -> tuple[str, Any] | None:
    """``--schema 'column_name="NAME"'``: the argument of a DataFrame function's scalar parameter
    (``frontend.dataframe.scalars``), told from ``NAME=DDL`` by its value being a Python literal."""
    from frontend.dataframe.scalars import scalar_declaration

    name, sep, text = item.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        return None
    arg = scalar_declaration(text)
    return (name, arg) if arg is not None else None


def _dynamic_frame_option(item: str) -> tuple[str, Any] | None:
    """``--schema 'dyf=DynamicFrame<DDL>'``: a parameter that is an AWS Glue DynamicFrame of those columns
    (``frontend.dataframe.dynamic_frames``); a Schema everywhere else."""
    from frontend.dataframe.dynamic_frames import declaration

    name, sep, text = item.partition("=")
    if not sep or not name.strip().isidentifier():
        return None
    schema = declaration(text, Loc("--schema", 1, 1))
    return (name.strip(), schema) if schema is not None else None


def _program_function(program: Program) -> str | None:
    """The frontend names a translated program after its Python function (when it had one)."""
    return program.name or None


Schemas = dict[str, Any] | None


def load_python_source(source: str, function: str | None, filename: str = "<input>",
                       schemas: Schemas = None) -> LoadedProgram:
    from frontend import translate_source

    if _is_dataframe_source(source, function, filename, schemas):
        from frontend.dataframe.translator import translate_dataframe_source

        rel = translate_dataframe_source(source, function, filename, schemas)
        return LoadedProgram(rel, "python", path=None if filename.startswith("<") else filename,
                             function=function or rel.name, source=source)
    program = translate_source(source, function=function, filename=filename)
    return LoadedProgram(program, "python", path=None if filename.startswith("<") else filename,
                         function=function or _program_function(program), source=source)


def _is_dataframe_source(source: str, function: str | None, filename: str, schemas: Schemas = None) -> bool:
    """Route a Python source to the DataFrame frontend when the chosen function (or, with none named, some
    top-level function) is DataFrame code; otherwise the RDD frontend reads it (and reports errors).

    A parameter given a schema (``--schema df=...``) is a DataFrame too: ``df.groupBy("k").count()``
    uses only methods RDDs also have, and was read as RDD code with the schema ignored (issue 25)."""
    import ast

    try:
        tree = ast.parse(source, filename=filename)
    except (SyntaxError, ValueError):
        return False  # the RDD frontend reports the syntax error with its location
    from frontend.dataframe.module import is_dataframe_function

    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    if function is not None:
        defs = [d for d in defs if d.name == function]
    named = {k.lower() for k in schemas or {}}
    params = [a.arg.lower() for d in defs for a in (*d.args.posonlyargs, *d.args.args, *d.args.kwonlyargs)
              if not _rdd_annotated(a)]  # an RDD parameter stays one (an RDD-to-SQL migration check)
    if any(p in named for p in params):
        return True
    return any(is_dataframe_function(d, tree) for d in defs)


def _rdd_annotated(arg: Any) -> bool:
    """Is the parameter annotated as an RDD (``RDD[tuple[int, str]]``, ``pyspark.RDD``)?"""
    import ast

    if arg.annotation is None:
        return False
    text = ast.unparse(arg.annotation)
    return text == "RDD" or text.startswith(("RDD[", "pyspark.RDD"))


def _load_function_object(fn: Any) -> LoadedProgram:
    """Read a function's source with ``inspect`` (never calling it) and translate it.

    A top-level function is translated in the context of its whole file (module-level helpers and
    constants resolve); if that fails, or the function is nested, a static method or a lambda assigned
    to a name, its own text alone is translated, padded with blank lines so that locations keep the
    line numbers of the original file. The values of the closure cells and globals it reads are
    appended as constants when they are ints, strings or bools: they are read from the function
    object, which runs nothing (a closure ``def make(k): return lambda R: R.filter(lambda x: x > k)``
    loads with ``k`` fixed).
    """
    if isinstance(fn, staticmethod):
        fn = fn.__func__
    if inspect.unwrap(fn) is not fn:  # a decorator (functools.wraps) may change what the function does
        raise InputError(f"{fn.__qualname__} is decorated: sparkeq reads the source of the function it "
                         "wraps, not what the decorator adds; pass the undecorated function")
    try:
        lines, first_line = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or "<input>"
    except (OSError, TypeError) as exc:
        raise InputError(f"cannot read the source of {fn!r}: {exc}") from None
    file_text = _file_text_or(filename, "")
    first_error: InputError | None = None
    # the file's definition is this function only if the module's name still means it and the def
    # starts where the function object's code does (a later def of the same name shadows an alias)
    is_the_file_def = getattr(fn, "__globals__", {}).get(fn.__name__) is fn \
        and getattr(getattr(fn, "__code__", None), "co_firstlineno", -1) == first_line
    if file_text and is_the_file_def and fn.__qualname__ == fn.__name__ and fn.__name__ != "<lambda>":
        try:
            loaded = load_python_source(file_text, fn.__name__, filename)
            return LoadedProgram(loaded.program, "python", path=filename, function=fn.__name__,
                                 source=file_text)
        except InputError as exc:
            first_error = exc
    name, source = _own_source(fn, textwrap.dedent("".join(lines)))
    padded = "\n" * max(first_line - 1, 0) + source + _constants(fn, source)
    try:
        loaded = load_python_source(padded, name, filename)
    except InputError:
        if first_error is not None:
            raise first_error from None
        raise
    return LoadedProgram(loaded.program, "python", path=loaded.path, function=name, source=padded)


def _own_source(fn: Any, source: str) -> tuple[str, str]:
    """The function's name and a ``def`` of it: decorators (``@staticmethod``) blanked out, line for
    line; ``name = lambda ...: body`` rewritten as ``def name(...): return body`` on the same line."""
    import ast

    try:
        body = ast.parse(source).body
        node = body[0]
    except (SyntaxError, IndexError):
        return fn.__name__, source
    lines = source.splitlines(keepends=True)
    if isinstance(node, ast.FunctionDef) and node.decorator_list:
        for d in node.decorator_list:
            if not (isinstance(d, ast.Name) and d.id == "staticmethod"):
                raise InputError(f"{fn.__qualname__} is decorated with @{ast.unparse(d)}: what a decorator "
                                 "adds is not analysed; pass the undecorated function")
        for i in range(node.decorator_list[0].lineno - 1, node.lineno - 1):
            lines[i] = "\n"
        return node.name, "".join(lines)
    lambdas = [n for n in body
               if isinstance(n, ast.Assign | ast.AnnAssign) and isinstance(n.value, ast.Lambda)]
    if len(lambdas) > 1:  # ``inc = lambda ...; dec = lambda ...``: which one is this function?
        raise InputError(f"several lambdas are assigned on the line of {fn.__qualname__}: put each on a "
                         "line of its own")
    if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Lambda):
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        lam = node.value
        if isinstance(target, ast.Name):
            args = ast.unparse(lam.args)
            body = ast.get_source_segment(source, lam.body) or ""
            head = "\n" * (lam.lineno - 1)
            return target.id, f"{head}def {target.id}({args}):\n    return ({body})\n"
    return fn.__name__, source


def _constants(fn: Any, source: str) -> str:
    """Module-level assignments for the int/str/bool values the function's closure cells and globals
    hold (names the source already binds at the top level are left alone)."""
    values: dict[str, Any] = {}
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    for name, cell in zip(code.co_freevars, fn.__closure__ or (), strict=False):
        with contextlib.suppress(ValueError):  # an empty cell
            values[name] = cell.cell_contents
    for name in _global_names(code):
        if name in fn.__globals__ and name not in values:
            values[name] = fn.__globals__[name]
    simple = {k: v for k, v in values.items() if isinstance(v, int | str | bool) and
              not re.search(rf"^{re.escape(k)}\s*=", source, re.M)}
    return "".join(f"\n{k} = {v!r}\n" for k, v in sorted(simple.items()))


def _global_names(code: Any) -> set[str]:
    """Names the code object and its nested code objects (lambdas inside) read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _global_names(const)
    return names


def _file_text_or(filename: str, fallback: str) -> str:
    try:
        with open(filename, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return fallback


_SPARKLITE_PROGRAM = re.compile(r"^\s*program\s+\w+\s*\(", re.M)
_PYTHON_IMPORT = re.compile(r"^\s*(import|from)\s", re.M)


def _looks_like_source(text: str) -> bool:
    return "\n" in text or text.lstrip().startswith(("def ", "import ", "from ", "program "))


def _load_string(spec: str, function: str | None, schemas: Schemas = None) -> LoadedProgram:
    if _looks_like_source(spec):
        if _SPARKLITE_PROGRAM.search(spec) and not _PYTHON_IMPORT.search(spec):
            return _load_sparklite_source(spec)
        return load_python_source(spec, function, schemas=schemas)
    path, sep, func = spec.partition("::")
    if sep and not func:
        raise InputError("missing function name after '::'", Loc(path, 1, 1))
    function = func if sep else function
    if path.endswith(".sl"):
        if sep:
            raise InputError("a .sl file holds one program; '::function' is not allowed", Loc(path, 1, 1))
        return _load_sparklite_file(path)
    if path.endswith(".py"):
        return _load_python_file(path, function, schemas)
    if path.endswith(".ipynb"):
        return _load_notebook(path, function, schemas)
    if path.endswith(".sql"):
        if sep:
            raise InputError("a .sql file holds one query; '::function' is not allowed", Loc(path, 1, 1))
        return _load_sql_file(path, schemas)
    if not os.path.exists(path):
        raise InputError("no such file", Loc(path, 1, 1))
    raise InputError("expected a .py file (optionally with ::function), a .sql file or a .sl file",
                     Loc(path, 1, 1))


def _load_sparklite_source(text: str) -> LoadedProgram:
    from sparklite import parser

    parse_text = getattr(parser, "parse_text", None) or getattr(parser, "parse", None)
    if parse_text is None:  # pragma: no cover - depends on the parser's API
        raise InputError("SparkLite source strings are not supported by this parser")
    return LoadedProgram(parse_text(text), "sparklite", source=text)


def load(spec: Any, function: str | None = None, schemas: Schemas = None) -> LoadedProgram:
    """Load one side of a check. ``function`` names the function for source strings and ``.py`` files
    (``path.py::name`` wins over it); ``schemas`` (``load_schemas``) types DataFrame parameters without
    an annotation and the tables of SQL queries."""
    from sparklite.relational.ast import RelProgram

    if isinstance(spec, LoadedProgram):
        return spec
    if isinstance(spec, RelProgram):
        return LoadedProgram(spec, "ast")
    if isinstance(spec, Program):
        return LoadedProgram(spec, "ast")
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(s, str) for s in spec):
        return load_python_source(spec[0], spec[1], schemas=schemas)
    if isinstance(spec, str):
        return _load_string(spec, function, schemas)
    if inspect.isfunction(spec) or inspect.ismethod(spec) or isinstance(spec, staticmethod):
        return _load_function_object(spec)
    raise InputError(f"cannot load a program from {type(spec).__name__}: expected a file path, "
                     "'file.py::function', source text, a Python function or a SparkLite Program")
