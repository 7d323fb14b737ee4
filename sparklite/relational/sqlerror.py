"""The exceptions a scalar operation raises while computing a value (``functions``, ``dates``).

Apart from ``functions`` so that every module of scalar semantics can raise them without importing
the function table (which lists them all: no import circle).
"""

from __future__ import annotations

from sparklite.relational.values import RelError


class SqlError(Exception):
    """Spark raised ``error`` while computing a value. The interpreter turns it into a lazy error value
    (raised only where the value is demanded), or into NULL under ``try_``."""

    def __init__(self, error: RelError) -> None:
        super().__init__(str(error))
        self.error = error


class DateOutOfRange(SqlError):
    """A string Spark casts to a date of a year outside 1..9999 (``'10000-01-01'``, ``'0000-01-01'``,
    ``'-2019'``: ``LocalDate`` is proleptic and has them), which ``datetime.date`` cannot hold. Raised as
    a ``SqlError`` so that no caller takes a value for it, and the interpreter adds a caveat: its
    outcome there is not Spark's, so a difference resting on it waits for Spark."""


__all__ = ["DateOutOfRange", "SqlError"]
