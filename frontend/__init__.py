"""Restricted PySpark (RDD API) source -> SparkLite AST, without ever running the user's code.

``translate_source(source, function=None, filename="<input>")`` and ``translate_file(path, function=None)``
return a typed ``sparklite.ast.Program``; everything outside the supported fragment is an
``InputError`` (``UnsupportedError``, ``NameResolutionError``, ``AnnotationNeededError``,
``TypeCheckError``) located at the offending line and column. See docs/frontend.md.

One package per dialect: ``rdd`` (RDD code, whose entry points these two are), ``dataframe``
(DataFrame code), ``sql`` (SQL text), ``script`` (whole scripts), all reading Python through the shared
``python`` package; the dialects import each other only where they share code (SQL text inside
DataFrame code), as the import contracts in pyproject.toml check.
"""

from frontend.rdd.loader import translate_file, translate_source

__all__ = ["translate_source", "translate_file"]
