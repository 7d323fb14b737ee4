"""A directory listed with ``os.listdir`` in a DataFrame script, next to ``spark.read`` of files in it.

The book's chapter 3 (``dataframe_creation_from_directory.py``) prints ``os.listdir(sys.argv[1])``, then
reads ``spark.read.format("csv").load(sys.argv[1] + "/*.csv")``. Script mode's inputs are the files Spark
reads, so the directory is the one that source reads (``glob_path``: ``sys.argv[i] + "/*.ext"``, a
source whose ``dir_glob`` is ``*.ext``), and its listing is no new input: both scripts get the same
directory, so the listing is one value both print alike, a ``Part("listing", "sys.argv[i]")`` compared
by construction in a proof (as a printed ``sys.argv[i]`` is). Its *order* is the file system's
(``os.listdir`` promises none): it is taken as one value both scripts see alike (two listings of one
unchanged directory on one machine), never as a set. As the RDD side does (``rdd_files``), a check
writes the directory holding one file, ``listing_file(glob)`` (``data.csv`` for ``*.csv``), so every run
prints ``['data.csv']`` (``listing_text``).

Refused, located: a listing of a directory no glob source of the script reads; a listing in a script
that writes files (a write may land inside the directory and change the listing depending on when it
is taken: review 5's rule for RDD scripts, kept here; only two constant paths are known apart, and a
listed directory is always ``sys.argv[i]`` here); any use of the listing other than printing it
(``len``, items, iteration: the ``ListingV`` value has no other operation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from frontend.script.df_program import DfSink, DfSource, Part
from sparklite.ast import Loc
from sparklite.errors import UnsupportedError

_GLOB = re.compile(r"/\*(\.[A-Za-z0-9_]+)")  # "/*.csv": every file with that suffix in the directory


@dataclass(frozen=True)
class ListingV:
    """``os.listdir(p)``: the listing of the directory at path expression ``path`` (only printable)."""

    DESCRIPTION = "a directory listing (os.listdir), which script mode models only printed"

    path: str
    loc: Loc


def glob_path(parts: tuple[Part, ...]) -> tuple[str, int, str] | None:
    """``sys.argv[i] + "/*.csv"`` (the parts of the text): (path expression, i, the glob ``*.csv``)."""
    if len(parts) != 2 or parts[0].kind != "arg" or parts[0].column < 1 or parts[1].kind != "lit":
        return None
    m = _GLOB.fullmatch(parts[1].text)
    if m is None:
        return None
    return f"{parts[0].text} + {parts[1].text!r}", parts[0].column, f"*{m.group(1)}"


def listing_file(glob: str) -> str:
    """The one file a check writes in a directory read through ``glob`` (``*.csv``: ``data.csv``)."""
    return "data" + glob[1:]


def listing_text(sources: tuple[DfSource, ...], directory: str) -> str:
    """What ``print(os.listdir(d))`` shows in every check: the one file written in the directory."""
    glob = next(s.dir_glob for s in sources if s.dir_glob is not None and _directory(s) == directory)
    return str([listing_file(glob)])


def listdir_call(path: tuple[str, int | None, str | None], args: list[Any], kwargs: dict[str, Any],
                 loc: Loc) -> ListingV:
    """``os.listdir(p)`` with ``p`` a path (``path``: ``DfScript.path_of`` of it)."""
    if len(args) != 1 or kwargs:
        raise UnsupportedError("os.listdir(path) takes one path in script mode", loc, construct="os.listdir")
    return ListingV(path[0], loc)


def _directory(s: DfSource) -> str | None:
    return f"sys.argv[{s.argv_index}]" if s.dir_glob is not None else None


def check_listings(listings: list[ListingV], sources: list[DfSource], sinks: list[DfSink]) -> None:
    """Each listed directory is one a glob source reads, and the script writes no file (see the module);
    a directory read through a glob is read by that one source only (a check writes it holding one file,
    which a second glob or a read of ``sys.argv[i]`` as a file would not see as the script does)."""
    for s in sources:
        if s.dir_glob is not None and any(t is not s and t.argv_index == s.argv_index for t in sources):
            raise UnsupportedError(
                f"{s.path}: the directory sys.argv[{s.argv_index}] is read by another source too; script "
                "mode models a directory read through one glob only", s.loc, construct="read")
    for lst in listings:
        if not any(_directory(s) == lst.path for s in sources):
            raise UnsupportedError(
                f"os.listdir({lst.path}): a directory the script does not read with spark.read "
                f"({lst.path} + '/*.csv'); script mode's inputs are the files Spark reads, so only such a "
                "directory's listing can be printed", lst.loc, construct="os.listdir")
        written = [k for k in sinks if k.kind in ("write", "glue")]
        if written:
            raise UnsupportedError(
                f"os.listdir({lst.path}) in a script that writes files ({written[0].path}) which may be "
                "inside that directory: the listing then depends on when it is taken, which script mode "
                "does not model", lst.loc, construct="os.listdir")
