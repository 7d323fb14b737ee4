"""How a DataFrame script builds its session, beyond names and memory: the working directory, Delta
Lake's session wrapper and the catalog settings that come with them.

Why: notebook set-up code (``cartershanklin/pyspark-cheatsheet``) puts the warehouse under
``os.getcwd()``, installs Delta Lake's SQL extension and catalog, and wraps the builder in
``configure_spark_with_delta_pip(builder)``. None of that changes what a job computes from files read
and written by path:

- ``os.getcwd()`` is the same text for both scripts (they are run from the same directory, as they get
  the same ``sys.argv``): a shared value, printed as a stand-in like ``sys.argv[i]``; it is never a path
  we read (``path_of`` refuses anything but ``sys.argv[i]`` and constants);
- ``configure_spark_with_delta_pip(builder, extra_packages=...)`` only adds ``spark.jars.packages`` to
  the builder (delta-spark's ``pip_utils``): the same builder for every non-Delta read;
- ``spark.sql.warehouse.dir``, ``spark.sql.extensions`` and ``spark.sql.catalog.spark_catalog`` decide
  where managed tables live and how the catalog resolves them: they matter to ``spark.table``/``saveAsTable``
  and SQL over catalog tables, so the script is refused as soon as it reads a catalog table after such a
  setting (``catalog_read``). Delta-format reads and writes stay refused (unknown format).
"""

from __future__ import annotations

from dataclasses import dataclass

from sparklite.ast import Loc
from sparklite.errors import UnsupportedError

#: settings harmless for jobs that read and write files by path only (see ``catalog_read``)
CATALOG_CONF = ("spark.sql.warehouse.dir", "spark.sql.extensions", "spark.sql.catalog.spark_catalog")

#: functions that take a session builder and return it with extra jars (the session is the same)
BUILDER_WRAPPERS = ("delta.configure_spark_with_delta_pip", "delta.pip_utils.configure_spark_with_delta_pip")


CATALOG_WHY = ("where managed tables live and how the catalog resolves them: no output of a job that reads "
               "and writes files by path depends on it (a catalog table read after it is refused)")
WRAPPER_WHY = ("delta-spark adds its jars to the builder (spark.jars.packages): the same session for every "
               "read that is not in the Delta format (Delta reads and writes are refused)")


@dataclass(frozen=True)
class CwdV:
    """``os.getcwd()``: the same text for both scripts."""

    DESCRIPTION = "os.getcwd() (the working directory)"

    TEXT = "os.getcwd()"


@dataclass(frozen=True)
class SqlContextV:
    """``SQLContext(spark)`` (or ``SQLContext(sc)``): Spark 4 returns a legacy wrapper of the same session
    and warns on stderr (checked on Spark). Binding it changes nothing; using it is refused (its methods
    are not read)."""

    DESCRIPTION = "a SQLContext (legacy wrapper of the session)"
    WHY = "a legacy wrapper of the same session (Spark 4 warns on stderr); its methods are not read"


def star_name(unknown_stars: list[str], name: str) -> str | None:
    """The module path of ``name`` when it comes from ``from delta import *`` (delta-spark's
    ``__all__`` is ``DeltaTable`` and ``configure_spark_with_delta_pip``; only the latter is read)."""
    if name == "configure_spark_with_delta_pip" and "from delta import *" in unknown_stars:
        return "delta.configure_spark_with_delta_pip"
    return None


def is_catalog_conf(key: str) -> bool:
    return key in CATALOG_CONF


def catalog_read(settings: list[tuple[str, Loc]], what: str, loc: Loc) -> None:
    """Refuse a catalog table read (``what``) once a catalog setting was made: where the table lives
    and how it resolves depend on it."""
    if settings:
        key, where = settings[0]
        raise UnsupportedError(
            f"{what} reads a catalog table after the setting {key} (made in the statement at line "
            f"{where.line}), which decides where and how catalog tables are found: not modelled",
            loc,
            construct="config",
        )


#: what a verdict rests on when a script names Delta Lake's classes (checked on Spark 4: without Delta's
#: jars, a session whose spark_catalog is DeltaCatalog fails every job, even a CSV read by path)
DELTA_ASSUMPTION = ("the classes named by spark.sql.extensions / spark.sql.catalog.spark_catalog (Delta "
                    "Lake's) are on the classpath (configure_spark_with_delta_pip adds them): without them "
                    "every job fails")


def assumptions(*programs: object) -> list[str]:
    """The assumption of ``DELTA_ASSUMPTION`` when either script makes a catalog setting or wraps its
    builder for Delta (``programs`` are ``DfScriptProgram``s: their ``ignored`` statements say so)."""
    marks = ("the setting spark.sql.extensions", "the setting spark.sql.catalog.spark_catalog",
             "configure_spark_with_delta_pip(builder)")
    for sp in programs:
        if any(i.construct in marks for i in getattr(sp, "ignored", ())):
            return [DELTA_ASSUMPTION]
    return []
