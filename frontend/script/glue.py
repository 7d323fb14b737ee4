"""AWS Glue jobs (``awsglue``: ``GlueContext``, ``DynamicFrame``, ``getResolvedOptions``, ``Job``): refused,
located at the first use of a Glue name, with why.

A Glue script reads through ``glueContext.create_dynamic_frame.from_catalog(...)`` or ``from_options``
(the Data Catalog, S3 with Glue's own readers, JDBC connections), transforms ``DynamicFrame``s
(``resolveChoice``, ``ApplyMapping``, ``relationalize``: schemas with choice types that Spark has no
equivalent for) and writes with ``write_dynamic_frame``. None of it exists outside AWS Glue: no local
Spark runs it, so no verdict about it could be replayed, and its semantics (choice types, Glue's JSON and
Parquet writers) are not Spark's. Modelling only the conversions (``dyf.toDF()``, ``DynamicFrame.fromDF``)
would still leave the sources and sinks, which are Glue's, so the whole job is refused at the first Glue
name it uses; the corpus counts it (``bench/corpus.py``). A DataFrame function in a Glue project that uses
no Glue name is read as any DataFrame function.
"""

from __future__ import annotations

import ast

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError

GLUE_MODULE = "awsglue"


def glue_names(tree: ast.Module) -> dict[str, str]:
    """Names bound by ``from awsglue... import X`` / ``import awsglue...`` at module level -> module."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.module.split(".")[0] == GLUE_MODULE:
            for a in stmt.names:
                if a.name != "*":
                    out[a.asname or a.name] = stmt.module
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.name.split(".")[0] == GLUE_MODULE:
                    out[(a.asname or a.name).split(".")[0]] = a.name
    return out


def check_no_glue(tree: ast.Module, filename: str) -> None:
    """Raise at the first use (in source order) of a name imported from ``awsglue`` in ``tree``."""
    names = glue_names(tree)
    if not names:
        return
    uses = [n for n in ast.walk(tree)
            if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
    if not uses:
        return
    first = min(uses, key=lambda n: (n.lineno, n.col_offset))
    raise UnsupportedError(
        f"'{first.id}' (from {names[first.id]}) is AWS Glue's API (GlueContext, DynamicFrame, Glue jobs): "
        "it runs only on AWS Glue, with sources, sinks and types (choice types) Spark does not have, so no "
        "local Spark can replay a verdict about it; sparkeq checks the Spark code of a job, not Glue's",
        Loc(filename, first.lineno, first.col_offset + 1),
        construct="awsglue",
    )
