"""``open(p).read()`` in an RDD script's driver code: the text of a file the script also reads with Spark.

Book-style jobs print their input before reading it (``def debug_file(p): f = open(p, 'r');
print("file_contents = \\n" + f.read()); f.close()``, then ``sc.textFile(p)``). Script mode's inputs
are the files Spark reads, so the printed text is not a new input: it is the text of the file the
``textFile`` source at the same path expression reads. It is a ``str`` input of kind ``file_text``
(``rdd_program.Source.text_of``) that every run sets from that source's lines, each ending with a
newline, exactly as the check writes the file (``rdd_program.with_partition_counts``), and that a proof
shares between the two scripts (both get the same files: equal by construction, as a printed
``sys.argv[i]`` is). The DataFrame side reads the same idiom in ``df_files``.

Only ``read()`` of a file opened for reading as text, and ``close()`` (which changes no output, listed
as ignored) are modelled; ``readline``, iteration, ``with``, writing modes and a file no Spark source
reads are refused, located.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace
from typing import Any

from frontend.script.rdd_meta import _str_const
from frontend.script.rdd_program import Source

_READ_MODES = ("r", "rt", "tr")
_ENCODINGS = ("utf-8", "utf8")


def is_builtin_open(d: Any, f: pyast.expr) -> bool:
    """``f`` names the builtin ``open``: the script binds no ``open`` of its own (a def, an assignment, an
    import)."""
    if not (isinstance(f, pyast.Name) and f.id == "open"):
        return False
    imported = any(isinstance(n, (pyast.Import, pyast.ImportFrom)) and any(
        (a.asname or a.name.split(".")[0]) == "open" for a in n.names) for n in pyast.walk(d.tree))
    return "open" not in d.defs and "open" not in d.meta and not d.stores.get("open") and not imported


def open_path(d: Any, call: pyast.expr) -> pyast.expr | None:
    """The path argument of ``open(p)``, ``open(p, "r")``, ``open(p, encoding="utf-8")``, or None when
    ``call`` is no call of the builtin ``open``; other modes and arguments are refused."""
    if not (isinstance(call, pyast.Call) and is_builtin_open(d, call.func)):
        return None
    kwargs = {k.arg: k.value for k in call.keywords}
    if not call.args or len(call.args) > 2 or None in kwargs or set(kwargs) - {"mode", "encoding"}:
        raise d.error("open", "open() with arguments other than a path, a mode and encoding= is not "
                      "modelled in script mode", call)
    mode = call.args[1] if len(call.args) > 1 else kwargs.get("mode")
    if mode is not None and _str_const(mode) not in _READ_MODES:
        raise d.error("open", "open() in another mode than reading text ('r') is not modelled: script mode "
                      "reads the files Spark reads", mode)
    encoding = kwargs.get("encoding")
    if encoding is not None and (_str_const(encoding) or "").lower() not in _ENCODINGS:
        raise d.error("open", "open() with an encoding other than UTF-8 is not modelled (the inputs are "
                      "written as UTF-8)", encoding)
    return call.args[0]


def bind_open(d: Any, target: pyast.expr, value: pyast.expr) -> bool:
    """``f = open(p, "r")``: ``f`` stands for the file at ``p`` (nothing is read yet). True when done."""
    path = open_path(d, value)
    if path is None:
        return False
    if not isinstance(target, pyast.Name):
        raise d.error("open", "a file opened with open() can only be bound to a name", target)
    d.open_files[target.id] = d.resolve_name(path)
    return True


def read_call(d: Any, node: pyast.Call) -> str | None:
    """``f.read()`` or ``open(p).read()``: the parameter holding the file's text, or None when ``node``
    is neither. Other methods of an opened file are refused."""
    f = node.func
    if not isinstance(f, pyast.Attribute):
        return None
    if isinstance(f.value, pyast.Name) and f.value.id in d.open_files:
        path = d.open_files[f.value.id]
    else:
        path = open_path(d, f.value)
        if path is None:
            return None
    if f.attr != "read" or node.args or node.keywords:
        raise d.error("open", f"{f.attr}() of a file opened with open() is not modelled in script mode "
                      "(read() and close() are)", node)
    return file_text_source(d, path, node)


def close_statement(d: Any, value: pyast.expr, stmt: pyast.stmt) -> bool:
    """``f.close()`` of a file opened with ``open``: no output changes; listed as ignored."""
    if isinstance(value, pyast.Call) and isinstance(value.func, pyast.Attribute) \
            and value.func.attr == "close" and not value.args and not value.keywords \
            and isinstance(value.func.value, pyast.Name) and value.func.value.id in d.open_files:
        d.ignore(stmt, f"{value.func.value.id}.close()", "closing a file read with open() changes no output")
        return True
    return False


def file_text_source(d: Any, path_node: pyast.expr, at: pyast.AST) -> str:
    """The ``str`` input holding the text of the file at ``path_node`` (one per path expression)."""
    path, argv_index, literal = d.path_of(path_node)

    def make() -> Source:
        return Source(d.fresh("file_text"), "file_text", "open", path, d.loc(at), argv_index, literal)
    return str(d.source_param(f"file_text:{path}", make))


def link_file_texts(d: Any) -> None:
    """Each file read with ``open`` is tied to the ``textFile`` source reading it (``Source.text_of``);
    a file no Spark source reads is refused where it is opened (script mode's inputs are the files Spark
    reads, compared and replayed as such)."""
    out = []
    for s in d.sources:
        if s.kind == "file_text":
            text = next((t for t in d.sources if t.kind == "text" and t.path == s.path), None)
            if text is None:
                raise d.error("open", f"open({s.path}).read(): a file the script does not read with "
                              "sc.textFile; script mode's inputs are the files Spark reads, so only such a "
                              "file's text can be printed", s.loc)
            s = replace(s, text_of=text.param)
        out.append(s)
    d.sources = out
