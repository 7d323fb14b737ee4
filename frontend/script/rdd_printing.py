"""Printed output of an RDD script: ``print`` of values, %-formats, ``str.format``, f-strings and
collected results, each a sink compared by its text. A mixin of ``rdd_driver._Driver``.
"""

from __future__ import annotations

import ast as pyast
import re

from frontend.script.rdd_meta import _COLLECTING, _SINK_BASE, _at, _name, _str_const

# one %-format field: %[flags][width][.precision]conversion (no mapping key, no *)
_PERCENT = re.compile(r"%(?P<flags>[-+ 0#]*)(?P<width>\d*)(?:\.(?P<prec>\d*))?(?P<conv>[sdiufFeEgG%])")


def _percent_spec(m: re.Match[str]) -> tuple[str, str] | None:
    """A %-format field as (kind, the ``format()`` spec of the converted value) with which Python writes
    the same text (``'%-8.2f' % x`` is ``format(float(+x), '<8.2f')``, ``'%5s' % x`` is
    ``format(str(x), '>5')``: %-format aligns strings right), or None when it is not modelled (a
    precision on an integer, flags on a string, ``%%`` with flags). ``tests/test_script_rdd_driver.py``
    compares both with CPython."""
    flags, width, prec, conv = m.group("flags"), m.group("width"), m.group("prec"), m.group("conv")
    if conv == "%":
        return None
    align = "<" if "-" in flags else ""
    if conv == "s":
        if set(flags) - {"-"}:
            return None
        if not width and prec is None:
            return ("s", "")
        return ("s", f"{align or '>'}{width}" + (f".{prec or 0}" if prec is not None else ""))
    sign = "+" if "+" in flags else " " if " " in flags else ""
    zero = "0" if "0" in flags and not align and width else ""
    if conv in "diu":
        if prec is not None or "#" in flags:
            return None
        spec = f"{align}{sign}{zero}{width}"
        return ("d", f"{spec}d" if spec else "")
    alt = "#" if "#" in flags else ""
    return ("f", f"{align}{sign}{alt}{zero}{width}" + (f".{prec or 0}" if prec is not None else "") + conv)


def _is_percent(node: pyast.expr) -> bool:
    """``"..." % x``: a %-format of a string constant."""
    return isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Mod) \
        and _str_const(node.left) is not None


def _formatted(value: pyast.expr, spec: str, conversion: int, at: pyast.AST) -> pyast.expr:
    """``f"{value:spec}"`` (``conversion``: -1, or ``ord("s")`` for ``!s``): Python's ``format(value,
    spec)``, which the RDD frontend reads as the kernel's ``py.format``."""
    spec_node = _at(pyast.JoinedStr([_at(pyast.Constant(spec), at)]), at) if spec else None
    field = _at(pyast.FormattedValue(value, conversion, spec_node), at)
    return _at(pyast.JoinedStr([field]), at)


class PrintingMixin:
    """``print`` and the text it writes, for ``rdd_driver._Driver``."""


    def print_args(self, call: pyast.Call) -> tuple[list[pyast.expr], str, str | None]:
        """The printed arguments, the separator, and the stream (None: stdout)."""
        sep, stream = " ", None
        for kw in call.keywords:
            if kw.arg == "sep":
                s = _str_const(kw.value) if not (isinstance(kw.value, pyast.Constant)
                                                 and kw.value.value is None) else " "
                if s is None:
                    raise self.error("print sep", "print's sep must be a string constant", kw.value)
                sep = s
            elif kw.arg == "end":
                e = _str_const(kw.value)
                if e != "\n" and not (isinstance(kw.value, pyast.Constant) and kw.value.value is None):
                    raise self.error("print end", "print with end= other than a newline is not supported "
                                     "(lines would run together)", kw.value)
            elif kw.arg == "file":
                m = self.meta_of(kw.value)
                if m is None or m.kind != "stream":
                    raise self.error("print file", "print to a file other than sys.stdout or sys.stderr is "
                                     "not supported", kw.value)
                stream = None if m.name == "stdout" else m.name
            elif kw.arg == "flush":
                continue
            else:
                raise self.error("print keyword", f"print's {kw.arg or '**'}= is not supported", kw.value)
        for a in call.args:
            if isinstance(a, pyast.Starred):
                raise self.error("print(*args)", "print(*args) is not supported", a)
        return list(call.args), sep, stream

    def print_statement(self, call: pyast.Call, stmt: pyast.stmt) -> None:
        args, sep, stream = self.print_args(call)
        if stream is not None:  # stderr: logging, no output; the arguments are still evaluated
            self.evaluate_args(pyast.Call(call.func, args, []))
            self.ignore(stmt, "print(..., file=sys.stderr)", "standard error is not an output compared (the "
                        "arguments are still evaluated: a job in them runs, and may raise)")
            return
        labelled = self.labelled_collection(args, sep)
        if labelled is not None:
            arg, collection, prefix, suffix = labelled
            self.print_collection(arg, collection, stmt, prefix, suffix)
            return
        text = self.newline(self.line_expr(args, sep, call), call)
        name = self.fresh(_SINK_BASE)
        self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], text), stmt))
        self.add_sink("print_value", "text", stmt, name)

    @staticmethod
    def newline(line: pyast.expr, at: pyast.AST) -> pyast.expr:
        """What ``print`` writes: the line and its newline (stdout is compared as text, so a print of an
        empty string and no print at all differ)."""
        return _at(pyast.BinOp(line, pyast.Add(), _at(pyast.Constant("\n"), at)), at)

    def labelled_collection(self, args: list[pyast.expr], sep: str
                            ) -> tuple[pyast.expr, tuple[str, pyast.expr], str, str] | None:
        """``print("counts:", rdd.collect())``: one collected list or dict printed with constant text
        around it (string constants, names bound to one, literals): (the argument, the collection, the
        text before it on the line, the text after it), or None."""
        found = [i for i, a in enumerate(args) if self.collection(a) is not None]
        if len(found) != 1:
            return None
        texts: list[str | None] = [self.constant_text(a) for a in args]
        i = found[0]
        if any(t is None for j, t in enumerate(texts) if j != i):
            return None
        before = [t for t in texts[:i] if t is not None]
        after = [t for t in texts[i + 1:] if t is not None]
        prefix = sep.join(before) + sep if before else ""
        suffix = sep + sep.join(after) if after else ""
        collection = self.collection(args[i])
        assert collection is not None
        return args[i], collection, prefix, suffix

    def constant_text(self, node: pyast.expr) -> str | None:
        """``str(node)`` when the script fixes it: a string constant or a literal (also a name bound once
        to one), rendered by Python's own ``str`` (what ``print`` writes)."""
        node = self.resolve_name(node)
        if isinstance(node, pyast.Name) and node.id in self.literal_vars:
            node = self.literal_vars[node.id]
        if isinstance(node, pyast.Constant) and isinstance(node.value, str):
            return node.value
        view = self.literal_dict_view(node)
        if view is not None:
            return str(view)  # dict_items([('a', 1)])
        if isinstance(node, (pyast.List, pyast.Tuple, pyast.Dict, pyast.Set)):
            try:
                return str(pyast.literal_eval(node))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
        return None

    def excluded_field(self, node: pyast.expr) -> str | None:
        """A printed Spark object (the session, the context, an RDD): its text holds a memory address, an
        RDD id or a call site, which change from run to run or with the code around it, not with the
        data. Such a field is excluded from the comparison (a placeholder on both sides; the replay masks
        it in the real output) and reported; None for other values."""
        m = self.meta_of(node)
        if m is not None and m.kind in ("session", "context"):
            placeholder = "<SparkSession>" if m.kind == "session" else "<SparkContext>"
            why = ("its text holds a memory address that changes from run to run" if m.kind == "session"
                   else "its text names the master and the application, settings rather than results")
        elif self.is_rdd_expr(node):
            if self.is_text_rdd(node) and self.printed_path(node) is None:
                raise self.error("printing a text file's RDD", "printing the RDD of a text file shows the "
                                 "file's path, which script mode models only for a path given as "
                                 "sys.argv[i]: print a value computed from it", node)
            placeholder = "<RDD>"
            why = "an RDD's text holds its id and call site, which depend on the code, not on the data"
        else:
            return None
        self.masks.add(placeholder)
        self.ignore(node, f"printed {placeholder[1:-1]} object",
                    f"{why}: the field is excluded from the comparison (the rest of the line is compared)")
        return placeholder

    def printed_path(self, node: pyast.expr) -> pyast.expr | None:
        """For a ``textFile`` RDD read from ``sys.argv[i]`` (directly or through a name bound once to it):
        that ``sys.argv[i]``. Spark prints such an RDD as its path, a space, then the RDD's name, id and
        call site (``in.txt MapPartitionsRDD[1] at textFile at NativeMethodAccessorImpl.java:0``, checked
        on Spark 4): the path is the argument both scripts get, the rest an excluded field. A constant
        path is refused (the replay does not read the file at the path the script names)."""
        if not self.is_text_rdd(node):
            return None
        path = self.text_path(node)
        if isinstance(path, pyast.Name) and path.id in self.path_vars:
            path = self.path_vars[path.id]
        return path if path is not None and self._argv_index(path) is not None else None

    def line_expr(self, args: list[pyast.expr], sep: str, call: pyast.AST) -> pyast.expr:
        """The text ``print(*args, sep=sep)`` writes (without the newline), as a Python expression the
        RDD frontend translates: ``str(a) + sep + str(b)``."""
        parts: list[pyast.expr] = []
        for a in args:
            if self.collection(a) is not None:
                raise self.error("printing a list with other values", "a collected list or dict can only be "
                                 "printed on its own or with constant text (print('counts:', rdd.collect()))",
                                 a)
            placeholder = self.excluded_field(a)
            path = self.printed_path(a) if placeholder is not None else None
            if path is not None:  # a textFile RDD: "<path> MapPartitionsRDD[1] at textFile at ..."
                parts.append(_at(pyast.BinOp(self.text_of(self.rewrite(path)), pyast.Add(),
                                             _at(pyast.Constant(" " + placeholder), a)), a))
                continue
            text = placeholder if placeholder is not None else self.constant_text(a)
            if text is not None:
                parts.append(_at(pyast.Constant(text), a))
                continue
            parts.append(self.text_of(self.rewrite(a)))
        if not parts:
            return _at(pyast.Constant(""), call)
        out = parts[0]
        for p in parts[1:]:
            if sep:
                out = _at(pyast.BinOp(out, pyast.Add(), _at(pyast.Constant(sep), call)), call)
            out = _at(pyast.BinOp(out, pyast.Add(), p), call)
        return out

    def text_of(self, node: pyast.expr) -> pyast.expr:
        """``str(node)`` as Python's print writes it, with %-formatting and ``str.format`` read as
        string concatenation (only ``%s``, ``%d``, ``%i`` and plain ``{}`` fields: a width or precision
        is not modelled)."""
        if self.makes_text(node):
            return self.string_expr(node)
        return _at(pyast.Call(_name("str", node), [node], []), node)

    def makes_text(self, node: pyast.expr) -> bool:
        """Whether ``node`` is a string by its form: a constant, an f-string, a %-format or
        ``str.format`` of a constant, or ``+`` with one of those on a side (Python then requires the
        other side to be a str too: the RDD frontend's typing refuses anything else)."""
        if isinstance(node, pyast.JoinedStr) or _str_const(node) is not None:
            return True
        if _is_percent(node):
            return True
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr == "format" and _str_const(node.func.value) is not None:
            return True
        return isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Add) \
            and (self.makes_text(node.left) or self.makes_text(node.right))

    def string_expr(self, node: pyast.expr) -> pyast.expr:
        """A string-making expression (``makes_text``) with its formats read as concatenations and
        ``format()`` fields; other parts unchanged (``result[0] + "\t{:.2f}F".format(t)``)."""
        if _is_percent(node):
            assert isinstance(node, pyast.BinOp)
            return self.percent_format(node)
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr == "format" and _str_const(node.func.value) is not None:
            return self.str_format(node)
        if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Add) and self.makes_text(node):
            return _at(pyast.BinOp(self.string_expr(node.left), pyast.Add(), self.string_expr(node.right)),
                       node)
        return node

    def percent_format(self, node: pyast.BinOp) -> pyast.expr:
        fmt = _str_const(node.left)
        assert fmt is not None
        pieces: list[tuple[str, str]] = []  # ("lit", text) | ("s"/"d"/"f", format() spec)
        i, lit = 0, ""
        while i < len(fmt):
            ch = fmt[i]
            if ch != "%":
                lit += ch
                i += 1
                continue
            m = _PERCENT.match(fmt, i)
            if m is not None and m.group("conv") == "%" and m.group(0) == "%%":
                lit += "%"
                i += 2
                continue
            spec = _percent_spec(m) if m is not None else None
            if spec is None:
                raise self.error("%-format", f"the format '{fmt[i:i + 6]}...' is not supported: %s, %d, "
                                 "%i, %f, %e, %g (and %F, %E, %G) with the flags -, +, space, 0, # and a "
                                 "constant width and precision are modelled", node.left)
            pieces.append(("lit", lit))
            lit = ""
            pieces.append(spec)
            i = m.end()  # type: ignore[union-attr]
        pieces.append(("lit", lit))
        fields = [p for p in pieces if p[0] != "lit"]
        right = node.right
        if isinstance(right, pyast.Tuple):
            values = list(right.elts)
            if any(isinstance(v, pyast.Starred) for v in values):
                raise self.error("%-format", "starred %-format arguments are not supported", right)
        elif isinstance(right, pyast.Dict):
            raise self.error("%-format", "%-formatting with a mapping is not supported", right)
        elif len(fields) > 1:  # "%s: %d" % pair: the tuple's items, read one by one
            if not isinstance(right, pyast.Name):
                raise self.error("%-format", "with several fields, the values must be a tuple display or a "
                                 "name bound to a tuple", right)
            values = [_at(pyast.Subscript(right, _at(pyast.Constant(i), right), pyast.Load()), right)
                      for i in range(len(fields))]
            self.tuple_formats.append((self.loc(node), len(fields)))
        else:
            values = [right]
            if fields and fields[0][0] == "s":
                self.single_format.append(self.loc(node))  # Python would unpack a tuple here
        if len(values) != len(fields):
            raise self.error("%-format", f"the format has {len(fields)} field(s) but {len(values)} value(s) "
                             "are given (Python raises TypeError)", right)
        out: list[pyast.expr] = []
        it = iter(values)
        for kind, text in pieces:
            if kind == "lit":
                if text:
                    out.append(_at(pyast.Constant(text), node))
                continue
            v = next(it)
            if kind == "d":  # '%d' % x: x must be a number (a float is truncated), as int(+x)
                v = _at(pyast.Call(_name("int", v), [_at(pyast.UnaryOp(pyast.UAdd(), v), v)], []), v)
            elif kind == "f":  # '%.2f' % x: x must be a number, as float(+x) ('%f' % 10**400 overflows)
                v = _at(pyast.Call(_name("float", v), [_at(pyast.UnaryOp(pyast.UAdd(), v), v)], []), v)
            elif text:  # '%5s' % x pads str(x) ('%5s' % True is ' True', format(True, '>5') '    1')
                v = _at(pyast.Call(_name("str", v), [v], []), v)
            if text:  # a width, a precision or flags: Python's format() of the converted value
                out.append(_formatted(v, text, -1, node))
                continue
            call = pyast.Call(_name("str", node), [v], [])
            out.append(_at(call, node))
        return self.concat(out, node)

    def str_format(self, node: pyast.Call) -> pyast.expr:
        assert isinstance(node.func, pyast.Attribute)
        fmt = _str_const(node.func.value)
        assert fmt is not None
        import string

        try:
            parsed = list(string.Formatter().parse(fmt))
        except ValueError as exc:
            raise self.error("str.format", f"bad format string: {exc}", node.func.value) from None
        if any(isinstance(a, pyast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.error("str.format", "str.format with *args or **kwargs is not supported", node)
        keywords = {k.arg: k.value for k in node.keywords}
        auto = 0
        out: list[pyast.expr] = []
        for literal, field_name, spec, conversion in parsed:
            if literal:
                out.append(_at(pyast.Constant(literal), node))
            if field_name is None:
                continue
            if conversion not in (None, "s") or "{" in (spec or ""):
                raise self.error("str.format spec", "format fields with !r/!a or a spec holding fields "
                                 "({:{w}}) are not supported; {}, {!s} and constant specs ({:.2f}) are",
                                 node.func.value)
            if field_name == "":
                index: int | str = auto
                auto += 1
            elif field_name.isdigit():
                index = int(field_name)
            elif field_name.isidentifier():
                index = field_name
            else:
                raise self.error("str.format field", f"the format field {{{field_name}}} is not supported",
                                 node.func.value)
            if isinstance(index, int):
                if index >= len(node.args):
                    raise self.error("str.format", "the format has more fields than arguments", node)
                value = node.args[index]
            else:
                if index not in keywords:
                    raise self.error("str.format", f"no argument for the field {{{index}}}", node)
                value = keywords[index]
            if spec or conversion:  # Python calls format(x, spec) (of str(x) with !s)
                out.append(_formatted(value, spec or "", ord("s") if conversion else -1, node))
                continue
            out.append(_at(pyast.Call(_name("str", node), [value], []), node))
        return self.concat(out, node)

    @staticmethod
    def concat(parts: list[pyast.expr], node: pyast.AST) -> pyast.expr:
        if not parts:
            return _at(pyast.Constant(""), node)
        out = parts[0]
        if len(parts) == 1 and _str_const(out) is None:
            return out
        for p in parts[1:]:
            out = _at(pyast.BinOp(out, pyast.Add(), p), node)
        return out

    def collection(self, node: pyast.expr) -> tuple[str, pyast.expr] | None:
        """A collected list or dict (``rdd.collect()``, a name bound to one, ``rdd.take(n)``,
        ``sorted(rdd.collect())``, ``rdd.countByValue()``): (kind, the expression) or None."""
        if isinstance(node, pyast.Name) and node.id in self.collected:
            return self.collected[node.id].kind, node
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and not node.args \
                and node.func.attr == "items" and isinstance(node.func.value, pyast.Name) \
                and node.func.value.id in self.ordered_dicts:  # OrderedDict(sorted(d.items())).items()
            return self.collection(self.ordered_dicts[node.func.value.id])
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and node.func.attr in _COLLECTING and self.meta_of(node.func.value) is None:
            if node.func.attr == "collect":
                return "bag", node
            if node.func.attr in ("countByValue", "countByKey", "collectAsMap"):
                return "dict", node
            return "list", node
        if self.dict_view(node) is not None:
            return "bag", node
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in (
                "sorted", "list") and len(node.args) == 1 and self.collection(node.args[0]) is not None:
            if node.func.id == "list" and self.collection(node.args[0])[0] == "bag":  # type: ignore[index]
                return "bag", node
            return "list", node
        return None

    def dict_view(self, node: pyast.expr) -> tuple[pyast.expr, str] | None:
        """``d.items()``, ``d.keys()``, ``d.values()`` of a counted dict (``d = rdd.countByValue()``, or the
        call itself): (the dict expression, the view)."""
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and not node.args \
                and not node.keywords and node.func.attr in ("items", "keys", "values"):
            d = node.func.value
            if self.dict_origin(d) is not None:
                return d, node.func.attr
        return None

    def dict_origin(self, d: pyast.expr) -> tuple[str, pyast.expr | str] | None:
        """(method, RDD expression or alias name) of a counted dict expression, or None."""
        if isinstance(d, pyast.Name) and d.id in self.collected and self.collected[d.id].kind == "dict":
            loop = self.collected[d.id]
            return loop.method or "", loop.alias or ""
        if isinstance(d, pyast.Call) and isinstance(d.func, pyast.Attribute) and not d.args \
                and d.func.attr in ("countByValue", "countByKey", "collectAsMap") \
                and self.meta_of(d.func.value) is None:
            return d.func.attr, d.func.value
        return None

    def dict_bag(self, d: pyast.expr, view: str) -> pyast.expr:
        """The bag of a counted dict's items (keys, values): the pairs ``reduceByKey(add)`` of ``(x, 1)``
        gives, each key once, in an order Spark chooses (so a loop's lines over them are a bag)."""
        origin = self.dict_origin(d)
        assert origin is not None
        method, rdd = origin
        if method == "collectAsMap" or not method:
            raise self.error("loop over collectAsMap", "a loop over a collectAsMap() dict is not supported "
                             "(a repeated key keeps its last value in partition order): loop over collect()",
                             d)
        if not isinstance(rdd, str):  # the dict is computed here, in the loop's header: the job runs now
            alias = self.fresh("counted")
            self.emit(_at(pyast.Assign([_name(alias, d, store=True)], self.rewrite(rdd)), d))
            job = self.fresh("job")
            call = _at(pyast.Call(_at(pyast.Attribute(_name(alias, d), method, pyast.Load()), d), [], []), d)
            self.emit(_at(pyast.Assign([_name(job, d, store=True)], call), d))
            rdd = alias
        key = ".map(lambda x: x[0])" if method == "countByKey" else ""
        text = f"{rdd}{key}.map(lambda x: (x, 1)).reduceByKey(lambda a, b: a + b)"
        if view != "items":
            text += f".{view}()"
        return _at(pyast.parse(text, mode="eval").body, d)

    def print_collection(self, arg: pyast.expr, collection: tuple[str, pyast.expr], stmt: pyast.stmt,
                         prefix: str = "", suffix: str = "") -> None:
        """``print(rdd.collect())``: one line, the repr of the list in partition order, compared as the bag of
        its elements (the program's value is the RDD itself, after the job has run where Python runs it);
        ``prefix``/``suffix``: constant text printed on the same line around it."""
        kind, node = collection
        node = self.hide_groups(node)
        name = self.fresh(_SINK_BASE)
        if kind == "bag":
            rdd = self.bag_of(node)
            self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], rdd), stmt))
        else:
            self.emit(_at(pyast.Assign([_name(name, stmt, store=True)], self.rewrite(node)), stmt))
        self.add_sink("print_collection", "elements", stmt, name, prefix=prefix, suffix=suffix)

    def is_grouped(self, node: pyast.expr) -> bool:
        """``rdd.groupByKey()`` (or a name bound to one): its elements' values are
        ``ResultIterable`` objects."""
        node = self.without_hints(node)
        if isinstance(node, pyast.Name):
            return node.id in self.grouped_rdds
        return isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and node.func.attr == "groupByKey" and self.is_rdd_expr(node.func.value)

    def hide_groups(self, node: pyast.expr) -> pyast.expr:
        """``grouped.collect()`` / ``grouped.take(n)`` printed: Python prints each group's values as
        ``<pyspark.resultiterable.ResultIterable object at 0x7f...>`` (checked on Spark 4), a memory
        address that changes from run to run. That field is excluded: the model prints the string
        ``'<ResultIterable>'`` in its place (``grouped.mapValues(lambda _: '<ResultIterable>')``, which
        runs the same job and raises where it does) and the replay masks Spark's text to the same repr; the
        keys, and how many groups there are, are still compared."""
        if not (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)
                and node.func.attr in ("collect", "take") and self.is_grouped(node.func.value)):
            return node
        hidden = pyast.parse("_.mapValues(lambda _values: '<ResultIterable>')", mode="eval").body
        assert isinstance(hidden, pyast.Call) and isinstance(hidden.func, pyast.Attribute)
        hidden.func.value = node.func.value
        pyast.copy_location(hidden, node)
        pyast.fix_missing_locations(hidden)
        for n in pyast.walk(hidden):  # every new node at the call's place
            pyast.copy_location(n, node)
        hidden.func.value = node.func.value
        out = _at(pyast.Call(_at(pyast.Attribute(hidden, node.func.attr, pyast.Load()), node), node.args,
                             node.keywords), node)
        self.masks.add("'<ResultIterable>'")
        self.ignore(node, "printed ResultIterable objects", "a group's values print as an object with its "
                    "memory address, which changes from run to run: the field is excluded from the "
                    "comparison (the keys and the rest of the line are compared)")
        return out

    def bag_of(self, node: pyast.expr) -> pyast.expr:
        """For a collected bag (``rdd.collect()`` or a name bound to one): run the job here (a strict
        ``collect``, as Python runs it) and return the RDD expression whose bag is observed."""
        view = self.dict_view(node)
        if view is not None:
            return self.dict_bag(*view)
        if isinstance(node, pyast.Name):
            loop = self.collected[node.id]
            assert loop.alias is not None
            return _name(loop.alias, node)
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):  # list(rdd.collect())
            return self.bag_of(node.args[0])
        assert isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)
        alias = self.fresh("collected")
        self.emit(_at(pyast.Assign([_name(alias, node, store=True)], self.rewrite(node.func.value)), node))
        seen = self.fresh("job")
        self.jobs.append(seen)
        job = _at(pyast.Call(_at(pyast.Attribute(_name(alias, node), "collect", pyast.Load()), node), [], []),
                  node)
        self.emit(_at(pyast.Assign([_name(seen, node, store=True)], job), node))
        return _name(alias, node)

    def format_job(self, bag: str, at: pyast.AST) -> None:
        """The lines of a bag sink are formatted where Python formats them (the loop, the save): a strict
        ``collect`` of the formatted RDD there. Dropped once types are known when the formatting cannot
        raise except through ``str`` of an int (see ``drop_format_jobs``)."""
        job = self.fresh("formatted")
        call = _at(pyast.Call(_at(pyast.Attribute(_name(bag, at), "collect", pyast.Load()), at), [], []), at)
        self.emit(_at(pyast.Assign([_name(job, at, store=True)], call), at))
        self.format_jobs.append(job)
