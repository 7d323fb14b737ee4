"""The function-body translator with the RDD dialect plugged in.

``frontend.python.udf.Translator`` translates Python bodies; an RDD method call (``rdd.map(f)``) or a
call of a module helper that works on RDDs needs the RDD dialect (``methods``, ``pipeline``), which in
turn needs the translator. Rather than the two importing each other, the translator declares the three
hooks and this subclass fills them in: the shared Python reading stays free of any dialect.
"""

from __future__ import annotations

import ast as pyast

from frontend.python.names import ModuleDef, Scope, Value
from frontend.python.udf import Translator
from frontend.rdd import methods, pipeline


class RddTranslator(Translator):
    """``Translator`` for RDD pipelines and scripts: RDD method calls and RDD helpers are translated."""

    rdd_methods = methods.RDD_METHODS

    def rdd_method(self, receiver: Value, func: pyast.Attribute, node: pyast.Call, scope: Scope) -> Value:
        return methods.method(self, receiver, func, node, scope)

    def inline_rdd_helper(self, mdef: ModuleDef, args: list[Value], call: pyast.Call) -> Value:
        return pipeline.inline_helper(self, mdef, args, call)
