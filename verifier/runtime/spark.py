"""The one place sparkeq talks to a real Spark: a process-wide SparkContext and exact partitionings.

Spark is imported lazily (cold start of the CLI must not pay for it) and started once per process,
because starting a JVM costs seconds. ``exact_rdd`` reproduces an explicit partitioning exactly:
``sc.parallelize(data, n)`` slices a list by position *and* by pickling batch, so it cannot express
``[[1, 2], [3]]``; parallelizing the list of partitions with one slice each and flattening can.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from verifier.core.services import SparkUnavailable

DEFAULT_MASTER = "local[2]"
MIN_JAVA = 17


def java_major_version() -> int | None:
    """The major version of the ``java`` on PATH (or in JAVA_HOME), or None when there is none."""
    java = None
    if os.environ.get("JAVA_HOME"):
        candidate = os.path.join(os.environ["JAVA_HOME"], "bin", "java")
        if os.path.exists(candidate):
            java = candidate
    java = java or shutil.which("java")
    if java is None:
        return None
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        return None
    major = int(match.group(1))
    if major == 1 and match.group(2):  # "1.8.0" style
        major = int(match.group(2))
    return major


def require_java() -> None:
    major = java_major_version()
    if major is None:
        raise SparkUnavailable(
            "Java was not found: Spark needs Java 17 or newer. Install it (e.g. "
            "`apt-get install openjdk-17-jre-headless`) or set JAVA_HOME."
        )
    if major < MIN_JAVA:
        raise SparkUnavailable(f"Java {major} found, but Spark needs Java {MIN_JAVA} or newer.")


@functools.cache
def get_context(master: str = DEFAULT_MASTER) -> Any:
    """The process's SparkContext (created on first use, then reused by every replay of the run)."""
    from verifier.runtime.progress import say

    say(f"starting Spark ({master}; a JVM start takes 10-30 s)")
    require_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # PySpark converts naive datetime values with the Python process's local zone: UTC, like the session
    os.environ["TZ"] = "UTC"
    if hasattr(time, "tzset"):
        time.tzset()
    if "PYSPARK_SUBMIT_ARGS" not in os.environ:  # quiet JVM logging unless the user configured Spark
        log_conf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
        os.environ["PYSPARK_SUBMIT_ARGS"] = (
            f'--driver-java-options "-Dlog4j2.configurationFile=file:{log_conf}" pyspark-shell')
    try:
        from pyspark import SparkConf, SparkContext
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SparkUnavailable(f"pyspark is not installed: {exc}") from exc
    conf = (
        SparkConf()
        .setMaster(master)
        .setAppName("sparkeq")
        .set("spark.ui.enabled", "false")
        .set("spark.ui.showConsoleProgress", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        # timestamps are read and shown in this zone (sparklite.relational.timestamps.SESSION_TIME_ZONE)
        .set("spark.sql.session.timeZone", "UTC")
        # Python UDFs as pickled UDFs whatever is installed (sparklite.relational.pyudf models them)
        .set("spark.sql.execution.pythonUDF.arrow.enabled", "false")
    )
    log = jvm_log_path()
    try:
        with _stderr_to(log):  # the JVM inherits this stderr: its start-up chatter goes to the log
            sc = SparkContext.getOrCreate(conf)
    except Exception as exc:  # the JVM failed to start: say so instead of a py4j traceback
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SparkUnavailable(f"Spark could not start at master {master!r}: {first} "
                               f"(the JVM's log: {log})") from exc
    sc.setLogLevel("ERROR")
    return sc


def jvm_log_path() -> str:
    """Where the JVM's own stderr goes (one file per sparkeq process, in the temp directory)."""
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"sparkeq-spark-{os.getpid()}.log")


@contextlib.contextmanager
def _stderr_to(path: str) -> Iterator[None]:
    """Point file descriptor 2 at ``path`` while the block runs. The JVM that PySpark launches
    inherits the descriptor and keeps it, so JVM warnings and log4j's start-up lines never reach the
    user's terminal (``--master bogus`` used to print a Java stack trace); Python's ``sys.stderr`` is
    restored when the block ends."""
    sys.stderr.flush()
    saved = os.dup(2)
    target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(target, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(target)


def exact_rdd(sc: Any, partitions: Sequence[Sequence[Any]]) -> Any:
    """An RDD whose partitions are exactly ``partitions`` (empty partitions included, order kept); no
    partition at all is ``sc.emptyRDD()`` (what ``sc.textFile`` of an empty file gives: ``parallelize``
    cannot make it, ``numSlices=0`` divides by zero)."""
    parts = [list(p) for p in partitions]
    if not parts:
        return sc.emptyRDD()
    return sc.parallelize(parts, len(parts)).flatMap(lambda part: part)


@functools.cache
def get_session(master: str = DEFAULT_MASTER) -> Any:
    """The process's SparkSession, over ``get_context``'s SparkContext (one JVM for RDD and DataFrame
    programs). Spark 4's defaults are kept (ANSI mode on): they are what the user's jobs run with."""
    sc = get_context(master)
    from pyspark.logger import PySparkLogger
    from pyspark.sql import SparkSession

    # PySpark 4 logs every error of a query to stderr as a JSON record with the JVM's stack trace; in
    # sparkeq an error is an outcome (replay compares it), not a failure to report, and the record
    # would bury the verdict. The loggers are PySpark's own, so they are fetched through its class.
    for name in ("DataFrameQueryContextLogger", "SQLQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True
    return SparkSession(sc)


def exact_dataframe(spark: Any, partitions: Sequence[Sequence[tuple]], schema: Any) -> Any:
    """A DataFrame whose partitions are exactly ``partitions`` (rows as tuples in schema order):
    ``createDataFrame`` over ``exact_rdd``, which keeps the RDD's partitioning."""
    return spark.createDataFrame(exact_rdd(spark.sparkContext, list(partitions) or [[]]), schema)
