"""Files and directories an RDD script's driver reads by hand, which are the inputs Spark also reads.

``open(p).read()``: the text of a file the script also reads with Spark.

Book-style jobs print their input before reading it (``def debug_file(p): f = open(p, 'r');
print("file_contents = \\n" + f.read()); f.close()``, then ``sc.textFile(p)``). Script mode's inputs
are the files Spark reads, so the printed text is not a new input: it is the text of the file the
``textFile`` source at the same path expression reads. It is a ``str`` input of kind ``file_text``
(``rdd_program.Source.text_of``) that every run sets from that source's lines, each ending with a
newline, exactly as the check writes the file (``rdd_program.with_partition_counts``), and that a proof
shares between the two scripts (both get the same files: equal by construction, as a printed
``sys.argv[i]`` is). The DataFrame side reads the same idiom in ``df_files``.

Only one ``read()`` of a file opened for reading as text (a second one returns ``''``: refused) and
``close()`` (which changes no output, listed as ignored) are modelled; ``readline``, iteration,
``with``, writing modes and a file no Spark source reads are refused, located.

``names = os.listdir(p)`` printed, next to ``sc.textFile(p)`` (the book's chapter 3 reads a directory):
the listing of the directory Spark reads. Both scripts get the same directory, so its listing is one
shared value: a ``str`` input of kind ``dir_listing`` standing for ``str(names)``, the same symbolic text
on both sides in a proof. Its *order* is the file system's (``os.listdir`` promises none): it is taken
as one value both scripts see alike (two listings of one unchanged directory on one machine), not as
a set. A check writes such an input as a directory holding one file, ``DIR_FILE``, so in every run the
listing is ``str([DIR_FILE])`` (``rdd_program.with_partition_counts``), and ``textFile`` of the
directory reads that file's lines with the file's own partitions (checked on Spark 4). The name may
only be printed (``print(..., names)``, ``str(names)``): its length, items or iteration are refused.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import replace
from typing import Any

from frontend.script.rdd_meta import _at, _name, _str_const
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
    d.files_read.discard(target.id)
    return True


def read_call(d: Any, node: pyast.Call) -> str | None:
    """``f.read()`` or ``open(p).read()``: the parameter holding the file's text, or None when ``node``
    is neither. Other methods of an opened file are refused."""
    f = node.func
    if not isinstance(f, pyast.Attribute):
        return None
    if isinstance(f.value, pyast.Name) and f.value.id in d.open_files:
        path = d.open_files[f.value.id]
        if f.attr == "read" and f.value.id in d.files_read:
            raise d.error("open", f"a second {f.value.id}.read() of the same file returns '' in Python (the "
                          "file is read to its end): not modelled in script mode", node)
        d.files_read.add(f.value.id)
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
    """Each file read with ``open`` and each directory listed is tied to the ``textFile`` source reading
    it (``Source.text_of``); one no Spark source reads is refused where it is read (script mode's inputs
    are the files Spark reads, compared and replayed as such), as is a path both opened as a file and
    listed as a directory."""
    out = []
    kinds: dict[str, set[str]] = {}
    for s in d.sources:
        if s.kind in ("file_text", "dir_listing"):
            text = next((t for t in d.sources if t.kind == "text" and t.path == s.path), None)
            what = f"open({s.path}).read()" if s.kind == "file_text" else f"os.listdir({s.path})"
            if text is None:
                raise d.error(s.reader, f"{what}: a {'file' if s.kind == 'file_text' else 'directory'} the "
                              "script does not read with sc.textFile; script mode's inputs are the files "
                              "Spark reads, so only such a file's text or directory's listing can be "
                              "printed", s.loc)
            if s.kind == "dir_listing":
                _no_write_inside(d, s)
            kinds.setdefault(s.path, set()).add(s.kind)
            if len(kinds[s.path]) > 1:
                raise d.error(s.reader, f"{s.path} is both opened as a file and listed as a directory",
                              s.loc)
            s = replace(s, text_of=text.param)
        out.append(s)
    d.sources = out


def _no_write_inside(d: Any, listing: Source) -> None:
    """Refuse a listing of a directory the script may write into: its text is one value both scripts
    share only while the directory is unchanged, and a ``saveAsTextFile`` into it adds a name, so a
    listing before and one after the write differ (review 5: ``os.listdir("data")`` before and after
    ``saveAsTextFile("data/out")`` were proved equal; Spark prints ``['data.txt']`` and
    ``['data.txt', 'out']``). A written path is known to be outside only when both are constants."""
    for sink in d.sinks:
        k = sink[0] if isinstance(sink, tuple) else sink
        if k.kind != "save_text":
            continue
        inside = listing.literal_path is None or k.literal_path is None or _within(k.literal_path,
                                                                                    listing.literal_path)
        if inside:
            raise d.error(listing.reader, f"os.listdir({listing.path}) in a script that writes files "
                          f"({k.path}) which may be inside that directory: the listing then depends on "
                          "when it is taken, which script mode does not model", listing.loc)


def _within(path: str, directory: str) -> bool:
    """May ``path`` be ``directory`` or inside it (relative to the same working directory)?"""
    import posixpath

    p, q = posixpath.normpath(path), posixpath.normpath(directory)
    if posixpath.isabs(p) != posixpath.isabs(q) or ".." in p.split("/") or ".." in q.split("/"):
        return True
    return q == "." or p == q or p.startswith(q.rstrip("/") + "/")


def bind_listing(d: Any, target: pyast.expr, value: pyast.expr) -> bool:
    """``names = os.listdir(p)``: ``names`` stands for the listing's text (a ``dir_listing`` input) and
    may only be printed. True when done."""
    if not (isinstance(value, pyast.Call) and isinstance(value.func, pyast.Attribute)
            and value.func.attr == "listdir" and d.meta_of(value.func.value) is not None
            and d.meta_of(value.func.value).name == "os"):
        return False
    if not (isinstance(target, pyast.Name) and d.stores.get(target.id) == 1 and len(value.args) == 1
            and not value.keywords):
        raise d.error("os.listdir", "os.listdir(path) is modelled bound once to a name that is printed",
                      value)
    printed = {id(a) for n in pyast.walk(d.tree) if isinstance(n, pyast.Call)
               and isinstance(n.func, pyast.Name) and n.func.id in ("print", "str") for a in n.args}
    for n in pyast.walk(d.tree):
        if isinstance(n, pyast.Name) and n.id == target.id and isinstance(n.ctx, pyast.Load) \
                and id(n) not in printed:
            raise d.error("os.listdir", f"the listing '{target.id}' of a directory is used in a way script "
                          "mode does not understand here: it is modelled only printed (print(..., names) "
                          "or str(names)), as one value both scripts see alike", n)
    path, argv_index, literal = d.path_of(value.args[0])

    def make() -> Source:
        return Source(d.fresh("dir_listing"), "dir_listing", "os.listdir", path, d.loc(value), argv_index,
                      literal)
    d.emit(_at(pyast.Assign([_name(target.id, target, store=True)],
                            _name(d.source_param(f"dir_listing:{path}", make), value)), target))
    return True

