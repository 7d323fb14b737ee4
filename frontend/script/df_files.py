"""``open(p).read()`` printed in a DataFrame script: the text of an input file Spark also reads.

Book-style jobs print their input before reading it (``def debug_file(p): f = open(p, 'r');
print("file_contents = \\n" + f.read()); f.close()``, then ``spark.read.csv(p, ...)``). The printed text
is the file's own text, which is exactly the input a check ranges over: the search writes each file as
lines (``df_script_search.source_lines``, each ending with a newline, as the replay writes it), so the
text is known for every candidate input, and two scripts printing the file at the same path expression
print the same text (both get the same arguments and files: equal by construction, as a printed
``sys.argv[i]`` is). So the value is a ``Part("file", path)``; what is read must be a file one of the
script's Spark sources reads (checked once the whole script is read, where a file Spark never reads is
refused at the ``open``: script mode's inputs are the files Spark reads). Only ``read()`` (and
``close()``, which changes nothing) of a file opened for reading as text are modelled; ``readline``,
iteration, writing modes and ``with`` are refused located.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from frontend.dataframe.values import PyV, as_str
from frontend.script.df_meta import _StrV
from frontend.script.df_program import DfSource, Part
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError

FILE_SOURCE_KINDS = ("csv", "json", "text")
_READ_MODES = ("r", "rt", "tr")
_ENCODINGS = ("utf-8", "utf8", "UTF-8", "UTF8")


@dataclass(frozen=True)
class OpenBuiltin:
    """The builtin ``open`` (when the script does not bind the name itself)."""

    DESCRIPTION = "open"


@dataclass(frozen=True)
class OpenFile:
    """``open(p, "r")``: a file handle of the input at path expression ``path``."""

    DESCRIPTION = "a file opened with open()"

    path: str
    loc: Loc


def is_builtin_open(info: Any) -> bool:
    """Is ``open`` the builtin here: not bound by the module (an import, a def, an assignment), and no
    star import of a module other than pyspark's could bind it (``from gzip import *``)?"""
    from frontend.dataframe.values import FUNCTIONS_MODULE, TYPES_MODULE

    bound = "open" in info.imports or "open" in info.defs or "open" in info.assigned or "open" in info.opaque
    return not bound and all(m in (FUNCTIONS_MODULE, TYPES_MODULE) for m in info.star_modules)


def open_call(path: str, args: list[Any], kwargs: dict[str, Any], loc: Loc) -> OpenFile:
    """``open(p)``, ``open(p, "r")``, ``open(p, encoding="utf-8")``: ``path`` is the path expression of
    ``p`` (``sys.argv[1]``, ``'data/x.csv'``)."""
    mode = args[1] if len(args) > 1 else kwargs.get("mode", PyV("r"))
    if len(args) > 2 or set(kwargs) - {"mode", "encoding"}:
        raise UnsupportedError("open() with arguments other than a path, a mode and encoding= is not "
                               "modelled in script mode", loc, construct="open")
    if as_str(mode, loc, "open()'s mode") not in _READ_MODES:
        raise UnsupportedError(f"open() in mode {mode.value!r} is not modelled: script mode reads the files "
                               "Spark reads, as text ('r')", loc, construct="open")
    encoding = kwargs.get("encoding")
    if encoding is not None and as_str(encoding, loc, "open()'s encoding") not in _ENCODINGS:
        raise UnsupportedError("open() with an encoding other than UTF-8 is not modelled (the inputs are "
                               "written as UTF-8)", loc, construct="open")
    return OpenFile(path, loc)


def file_method(f: OpenFile, name: str, args: list[Any], kwargs: dict[str, Any], loc: Loc) -> Any:
    """``f.read()``: the file's text; ``f.close()``: nothing (the caller lists it as not mattering)."""
    if args or kwargs or name not in ("read", "close"):
        raise UnsupportedError(f"{name}() of a file opened with open() is not modelled in script mode "
                               "(read() and close() are)", loc, construct="open")
    if name == "close":
        return PyV(None)
    return _StrV((Part("file", f.path),))


def read_once(done: set[int], f: OpenFile, loc: Loc) -> None:
    """A handle is read once: Python's second ``f.read()`` returns ``''`` (the file is read to its end),
    which is not modelled, so it is refused (``done``: the ids of the handles already read)."""
    if id(f) in done:
        raise UnsupportedError("a second read() of the same file returns '' in Python (the file is read to "
                               "its end): not modelled in script mode", loc, construct="open")
    done.add(id(f))


def check_opened(opened: list[OpenFile], sources: list[DfSource]) -> None:
    """Every file read with ``open`` is one a Spark source of the script reads (by path expression)."""
    for f in opened:
        same = [s for s in sources if s.path == f.path and s.kind in FILE_SOURCE_KINDS]
        if not same:
            raise UnsupportedError(
                f"open({f.path}).read(): a file the script does not read with spark.read; script mode's "
                "inputs are the files Spark reads, so only such a file's text can be printed", f.loc,
                construct="open")
