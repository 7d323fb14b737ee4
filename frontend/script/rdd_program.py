"""What an RDD script is read into (``ScriptProgram``: its sources and sinks) and what the checker reads
from one: the inputs a script fixes, a counterexample as the files the script reads, and candidate input
lines shaped by the script's parsing. Apart from the driver so that the verifier needs only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
    ``numSlices`` when given. ``loc`` is where the script reads it (the first time)."""

    param: str
    kind: str
    reader: str
    path: str
    loc: sl.Loc
    argv_index: int | None = None
    literal_path: str | None = None
    values: tuple[Any, ...] | None = None
    slices: int | None = None


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
    ``stdout`` tells whether it writes to standard output. For ``save_text``,
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

    def source(self, param: str) -> Source:
        for s in self.sources:
            if s.param == param:
                return s
        raise KeyError(param)




def fixed_inputs(sp: ScriptProgram) -> dict[str, list[Any]]:
    """The inputs whose value the script fixes (``sc.parallelize`` of a literal), by parameter: a proof
    may treat them as any bag, but a counterexample must give them these values."""
    return {s.param: list(s.values or ()) for s in sp.sources if s.kind == "literal"}


def input_files(sp: ScriptProgram, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A counterexample as the script's user sees it: each text input's lines and each argument's value,
    by the path expression the script reads it from (``{"sys.argv[1]": ["a,b,1"]}``)."""
    return {s.path: (list(inputs[s.param]) if s.kind != "argument" else inputs[s.param])
            for s in sp.sources if s.kind in ("text", "argument") and s.param in inputs}




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
