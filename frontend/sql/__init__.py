"""The SQL dialect: SQL text (sqlglot's parser only, never its optimiser) -> the relational kernel.

``translator`` (queries), ``schema`` (CREATE TABLE files and ``--schema`` options).
"""
