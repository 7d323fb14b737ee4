"""What an RDD script is read into (``ScriptProgram``: its sources and sinks) and what the checker reads
from one: the inputs a script fixes, a counterexample as the files the script reads, and candidate input
lines shaped by the script's parsing. Apart from the driver so that the verifier needs only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sparklite import ast as sl

# --- the result ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One input of a script.

    ``kind``: ``"text"`` (``sc.textFile(p)``, ``spark.read.text(p).rdd.map(lambda r: r[0])``: a bag of
    lines, the program parameter is a ``Bag[str]``), ``"argument"`` (``sys.argv[i]`` used as a value:
    a ``Str`` parameter) or ``"literal"`` (``sc.parallelize(<literal>)``: the parameter stands for the
    literal ``values``; a proof for every bag covers it, but a counterexample must use ``values``).
    ``path`` is the path (or argument) expression as written (``sys.argv[1]``, ``'data/in.txt'``), what
    two scripts' sources are matched by; ``argv_index`` its position in ``sys.argv`` when it comes from
    there, ``literal_path`` the path when it is a string constant. ``slices`` is ``parallelize``'s
    ``numSlices`` (or ``textFile``'s ``minPartitions``) when given. ``loc`` is where the script reads it
    (the first time). Kind
    ``"partitions"`` is an ``int`` input, the partition count of source ``partitions_of`` (what
    ``rdd.getNumPartitions()`` gives for an RDD whose partitions follow it): set from the partitioning
    of each run (``with_partition_counts``), the same symbolic value on both sides in a proof.
    ``path_too``: an argument whose ``sys.argv[i]`` also names a file the script reads or writes
    (``print("input:", p)`` next to ``sc.textFile(p)``): both scripts get the same arguments, so its
    text is shared symbolic text, and a replay names the file after it (``path_name``). Kind
    ``"file_text"`` is a ``str`` input, the whole text of the file text source ``text_of`` reads (the
    driver printing ``open(p).read()`` before ``sc.textFile(p)``, ``rdd_files``): set from that source's
    lines in each run (``with_partition_counts``), the same symbolic value on both sides in a proof (both
    scripts get the same files). Kind ``"dir_listing"`` is a ``str`` input, ``str(os.listdir(p))`` of the
    directory text source ``text_of`` reads (``rdd_files``): ``DIR_LISTING`` in every run, the same
    symbolic value on both sides in a proof."""

    param: str
    kind: str
    reader: str
    path: str
    loc: sl.Loc
    argv_index: int | None = None
    literal_path: str | None = None
    values: tuple[Any, ...] | None = None
    slices: int | None = None
    path_too: bool = False  # an argument that also names a file the script reads or writes
    partitions_of: str | None = None  # kind "partitions": the source whose partition count it is
    text_of: str | None = None  # kind "file_text": the text source whose file's text it is


@dataclass(frozen=True)
class Sink:
    """One output of a script: item ``index`` of the program's result tuple.

    ``kind``: ``print_value`` (``print(...)`` of values), ``print_lines`` (a loop printing the elements
    of a collected result), ``print_collection`` (``print(rdd.collect())``, ``print(rdd.take(n))``,
    ``print(rdd.countByValue())``: one line, the repr of a list or dict), ``print_branch`` (an ``if`` on
    driver values whose branches print), ``save_text`` (``saveAsTextFile(p)``) or ``exit`` (a final
    ``sys.exit(code)``).

    ``observed`` says how the output is compared, and what the item's value is: ``"text"`` (a string,
    the exact text printed, every line with its newline; consecutive ``print_value``/``print_branch``
    sinks share one item, the text they print together), ``"bag_of_lines"`` (a bag of lines, in any
    order: a loop over an unsorted ``collect()``), ``"sorted_lines"`` (the lines of a sorted RDD, in order
    modulo ties), ``"lines_in_order"`` (a list of lines, in order: a loop over ``take``, ``sorted``...),
    ``"elements"`` (one printed line, the repr of a list or dict; the value is the collected bag, the
    list or the dict), ``"files"`` (the bag of the part files' lines) or ``"exit_code"`` (an int).
    ``stdout`` tells whether it writes to standard output. ``prefix``/``suffix`` are the constant text
    printed around a collection on its line (``print("counts:", rdd.collect())``). For ``save_text``,
    ``path``/``argv_index``/``literal_path`` name the directory written. ``text`` is the sink's source
    line, for reports."""

    index: int
    kind: str
    observed: str
    loc: sl.Loc
    text: str
    stdout: bool = True
    path: str | None = None
    argv_index: int | None = None
    literal_path: str | None = None
    prefix: str = ""
    suffix: str = ""


@dataclass(frozen=True)
class Ignored:
    """A statement (or a printed field) shown not to change what the script writes, for the report:
    ``construct`` names it (``spark.stop()``, ``printed SparkSession``), ``why`` says why it cannot
    change the outputs (or, for an excluded field, why it is left out of the comparison)."""

    line: int
    col: int
    construct: str
    why: str

    def to_json(self, side: str) -> dict[str, object]:
        return {"side": side, "line": self.line, "col": self.col, "construct": self.construct,
                "why": self.why}


# Printed fields excluded from the comparison, and how a real run's stdout shows them: the replay puts
# the placeholder in place of every match before comparing (``mask_line``).
MASKS: dict[str, str] = {
    "<SparkSession>": r"<pyspark\.sql\.session\.SparkSession object at 0x[0-9a-fA-F]+>",
    "<SparkContext>": r"<SparkContext master=[^\s>]* appName=[^>]*>",
    "<RDD>": r"\b\w*RDD\[\d+\] at \S+ at \S+:\d+",
    # a group's values in a collected groupByKey() result: the model holds the string
    # '<ResultIterable>' there, so the masked repr parses to the same value (rdd_printing.hide_groups)
    "'<ResultIterable>'": r"<pyspark\.resultiterable\.ResultIterable object at 0x[0-9a-fA-F]+>",
    # sys.argv[0] (rdd_argv): the replay puts the placeholder in place of the absolute path it runs the
    # script by (script_replay.observe_run), which no pattern can tell from other printed paths
    "<sys.argv[0]>": r"<sys\.argv\[0\]>",
}


def mask_line(line: str, masks: tuple[str, ...]) -> str:
    """``line`` as the model prints it: each excluded field (a Spark object's text, which holds a memory
    address or an id that changes from run to run) replaced by its placeholder."""
    import re

    for placeholder in masks:
        line = re.sub(MASKS[placeholder], placeholder, line)
    return line


@dataclass(frozen=True)
class ScriptProgram:
    """A whole script as a SparkLite program (``program``: inputs are the sources' parameters, in
    ``sources`` order; the result is the tuple of the sinks' values, in ``sinks`` order).

    ``argv_length`` is ``len(sys.argv)`` as modelled (the script name plus one argument per
    ``sys.argv[i]`` the script uses, up to the highest ``i``); ``entry`` the function run after the
    module's top level, if one was named."""

    program: sl.Program
    sources: tuple[Source, ...]
    sinks: tuple[Sink, ...]
    argv_length: int
    filename: str
    entry: str | None = None
    ignored: tuple[Ignored, ...] = ()
    masks: tuple[str, ...] = ()  # placeholders of MASKS the printed text holds
    master: str | None = None  # the master URL the script sets (source text), None when it sets none

    def source(self, param: str) -> Source:
        for s in self.sources:
            if s.param == param:
                return s
        raise KeyError(param)




def fixed_inputs(sp: ScriptProgram) -> dict[str, list[Any]]:
    """The inputs whose value the script fixes (``sc.parallelize`` of a literal), by parameter: a proof
    may treat them as any bag, but a counterexample must give them these values."""
    return {s.param: list(s.values or ()) for s in sp.sources if s.kind == "literal"}


def with_partition_counts(sp: ScriptProgram, inputs: Mapping[str, Any], parts: Mapping[str, Any]
                          ) -> dict[str, Any]:
    """``inputs`` with each ``getNumPartitions()`` input set to the partition count of its source in
    ``parts`` (the partitioning a run uses), and each file's text read with ``open`` set to the text of
    its source's lines (``file_text``), by ``sp``'s parameter names."""
    out = dict(inputs)
    for s in sp.sources:
        if s.kind == "partitions" and s.partitions_of in parts:
            out[s.param] = len(parts[s.partitions_of])
        elif s.kind == "file_text" and s.text_of in inputs:
            out[s.param] = file_text(inputs[s.text_of])
        elif s.kind == "dir_listing":
            out[s.param] = DIR_LISTING
    return out


# A text source whose path the script also lists with os.listdir is written as a directory holding one
# file of this name (``verifier.runtime.script_replay.write_inputs``), so the listing every run prints
# is ``DIR_LISTING`` (``rdd_files``).
DIR_FILE = "data.txt"
DIR_LISTING = str([DIR_FILE])


def listed_dirs(sp: ScriptProgram) -> set[str]:
    """The parameters of the text sources read from a directory the script lists (``dir_listing``)."""
    return {s.text_of for s in sp.sources if s.kind == "dir_listing" and s.text_of is not None}


def file_text(lines: Any) -> str:
    """The text of the file a text source reads as ``lines``, as a check writes it (each line ends with a
    newline: ``verifier.core.script_inputs.lines_file_text``), which ``open(p).read()`` returns."""
    return "".join(f"{line}\n" for line in lines)


def input_files(sp: ScriptProgram, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A counterexample as the script's user sees it: each text input's lines and each argument's value,
    by the path expression the script reads it from (``{"sys.argv[1]": ["a,b,1"]}``)."""
    return {(f"{s.path} (its text)" if s.path_too else s.path):
            (list(inputs[s.param]) if s.kind != "argument" else inputs[s.param])
            for s in sp.sources if s.kind in ("text", "argument") and s.param in inputs}


def path_name(value: Any, index: int) -> str:
    """The text of a ``sys.argv[index]`` that is both a path and a printed value, made a file name a
    replay can create in its working directory (a short relative name of letters, digits, ``_``, ``-``
    and ``.``, not one of the names the replay gives other files): ``value`` itself when it is one, else
    ``path{index}.txt``."""
    import re

    if isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}", value) \
            and not value.startswith(("input_", "output_", "unused_", "path")):
        return value
    return f"path{index}.txt"


def share_path_arguments(left: ScriptProgram, right: ScriptProgram) -> tuple[ScriptProgram, ScriptProgram]:
    """Both scripts get the same arguments: a ``sys.argv[i]`` one script prints (``path_too``) and the
    other only reads or writes as a path is given, as an unused argument, to the other as well, so that
    their inputs line up (``align_sources``)."""
    def paths(sp: ScriptProgram) -> set[int]:
        out = {s.argv_index for s in sp.sources if s.kind == "text" and s.argv_index is not None}
        return out | {k.argv_index for k in sp.sinks if k.kind == "save_text" and k.argv_index is not None}

    def add(sp: ScriptProgram, other: ScriptProgram) -> ScriptProgram:
        have = {s.argv_index for s in sp.sources if s.kind == "argument"}
        kinds = ("partitions", "file_text", "dir_listing")
        counted = {(s.kind, s.path) for s in sp.sources if s.kind in kinds}
        for s in other.sources:
            of = next((o for o in other.sources if o.param == s.partitions_of), None)
            mine = next((m for m in sp.sources if of is not None and m.path == of.path
                         and m.kind == of.kind), None)
            if s.kind in ("file_text", "dir_listing") and (s.kind, s.path) not in counted:
                text = next((m for m in sp.sources if m.kind == "text" and m.path == s.path), None)
                if text is not None:  # the other script prints the file this one reads: an unused input
                    sp = _add_unused(sp, replace(s, text_of=text.param), s.kind)
                continue
            if s.kind == "partitions" and (s.kind, s.path) not in counted and mine is not None:
                sp = _add_unused(sp, replace(s, partitions_of=mine.param), "partitions")
                continue
            if s.path_too and s.argv_index not in have and s.argv_index in paths(sp):
                names = {p.name for p in sp.program.params}
                name = f"arg{s.argv_index}"
                while name in names:
                    name += "_"
                from sparklite.types import StrType

                param = sl.Param(name, StrType(), loc=sp.program.loc)
                sp = replace(sp, program=replace(sp.program, params=(*sp.program.params, param)),
                             sources=(*sp.sources, replace(s, param=name, loc=sl.Loc(sp.filename, 1, 1))))
        return sp
    return add(left, right), add(right, left)




def _add_unused(sp: ScriptProgram, s: Source, base: str) -> ScriptProgram:
    """``sp`` with one more input, ``s`` (from the other script), that it does not read: a count of
    partitions (an ``int``) or a file's text (a ``str``)."""
    from sparklite.types import IntType, StrType

    name = f"{base}_{len(sp.sources)}"
    param = sl.Param(name, IntType() if s.kind == "partitions" else StrType(), loc=sp.program.loc)
    return replace(sp, program=replace(sp.program, params=(*sp.program.params, param)),
                   sources=(*sp.sources, replace(s, param=name, loc=sl.Loc(sp.filename, 1, 1))))


def text_input_hints(sp: ScriptProgram, limit: int = 48) -> tuple[str, ...]:
    """Candidate lines for the text inputs of ``sp``, shaped by how the program parses them: fields
    joined by the separators it splits on (``line.split(",")``), as many as the indices it reads, holding
    small ints where it calls ``int()``, and the string constants it compares with (``startswith("ERROR")``).

    Why: a counterexample of a script is a small text file, and random strings almost never have three
    comma-separated fields ending in a number; a search that mixes these lines into its random bags finds
    a wrong parse index at once. Deterministic, at most ``limit`` lines, none holding a line break."""
    program = sp.program
    seps: list[str] = []
    consts: list[str] = []
    max_index = 0
    parses_numbers = False
    for n in sl.walk(program):
        if isinstance(n, sl.Call) and n.func == "str.split":
            sep = n.args[1].value if len(n.args) > 1 and isinstance(n.args[1], sl.StrLit) else " "
            if sep and sep not in seps:
                seps.append(sep)
        elif isinstance(n, sl.Call) and n.func == "py.getitem" and isinstance(n.args[1], sl.IntLit):
            max_index = max(max_index, n.args[1].value if n.args[1].value >= 0 else -n.args[1].value - 1)
        elif isinstance(n, sl.Call) and n.func == "py.unpack" and isinstance(n.args[1], sl.IntLit):
            max_index = max(max_index, n.args[1].value - 1)
        elif isinstance(n, sl.Call) and n.func in ("int", "float"):
            parses_numbers = True
        if isinstance(n, sl.Call) and n.func in ("str.startswith", "str.endswith") \
                or isinstance(n, sl.BinOp) and n.op in ("==", "!=", "in"):
            for c in (n.args if isinstance(n, sl.Call) else (n.left, n.right)):
                if isinstance(c, sl.StrLit) and c.value and len(c.value) <= 24 and "\n" not in c.value \
                        and "\r" not in c.value and c.value not in consts:
                    consts.append(c.value)
    for d in program.defs:
        for n in sl.walk(d):
            if isinstance(n, sl.Call) and n.func == "str.split" and len(n.args) > 1 \
                    and isinstance(n.args[1], sl.StrLit) and n.args[1].value and n.args[1].value not in seps:
                seps.append(n.args[1].value)
    consts = [c for c in consts if c not in seps]
    seps = seps or [" "]
    words = ["a", "b", *consts[:6]]
    numbers = ["1", "2", "-3", "0"] if parses_numbers else ["1", "2"]
    out: list[str] = [""]
    for sep in seps:
        for width in sorted({max_index + 1, max_index + 2, 1}):
            rows = [
                [words[i % 2] for i in range(width)],
                [words[(i + 1) % 2] for i in range(width)],
                [words[0]] * width,
                [words[i % 2] if i < width - 1 else numbers[0] for i in range(width)],
                [words[(i + 1) % 2] if i < width - 1 else numbers[1] for i in range(width)],
                [numbers[i % len(numbers)] for i in range(width)],
            ]
            for c in consts[:6]:
                rows.append([c] + [words[i % 2] if i < width - 2 else numbers[0] for i in range(width - 1)])
            for row in rows:
                line = sep.join(row)
                if line not in out:
                    out.append(line)
    for c in consts[:6]:
        if c not in out:
            out.append(c)
    return tuple(line for line in out if "\n" not in line and "\r" not in line)[:limit]
