"""``[tool.sparkeq]`` in pyproject.toml (verifier.interfaces.config, docs/config.md): found by walking up
from the checked files, read by the library, ``check``, ``batch`` and ``hook``; explicit options win. A
DataFrame function without a DDL annotation is checked with the project's declared tables. No Spark."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import sparkeq
from verifier.interfaces import config as cfg
from verifier.interfaces.cli import main

OLD = """
from pyspark.sql import functions as F


def big(orders):
    return orders.filter(F.col("amount") > 10).select("id")
"""
NEW = """
from pyspark.sql import functions as F


def big(orders):
    return orders.select("id", "amount").filter(F.col("amount") > 10).select("id")


def big_wrong(orders):
    return orders.filter(F.col("amount") >= 10).select("id")
"""
CONFIG = """
[project]
name = "shop"

[tool.sparkeq]
timeout = 30
replay = false

[tool.sparkeq.schemas]
orders = "id INT NOT NULL, amount INT"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(CONFIG)
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "old.py").write_text(textwrap.dedent(OLD))
    (jobs / "new.py").write_text(textwrap.dedent(NEW))
    return tmp_path


def test_found_by_walking_up_from_the_checked_file(project: Path) -> None:
    found = cfg.find(str(project / "jobs" / "old.py"))
    assert found.path == str((project / "pyproject.toml").resolve())
    assert found.timeout == 30 and found.replay is False
    assert found.schemas == ("orders=id INT NOT NULL, amount INT",)


def test_a_pyproject_without_the_table_is_skipped(project: Path) -> None:
    (project / "jobs" / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    assert cfg.find(str(project / "jobs")).path == str((project / "pyproject.toml").resolve())


def test_library_uses_the_declared_tables(project: Path) -> None:
    jobs = project / "jobs"
    assert sparkeq.check(f"{jobs}/old.py::big", f"{jobs}/new.py::big").verdict == "equivalent"
    assert sparkeq.check(f"{jobs}/old.py::big", f"{jobs}/new.py::big_wrong").verdict == "not_equivalent"
    ignored = sparkeq.check(f"{jobs}/old.py::big", f"{jobs}/new.py::big", config=False)
    assert ignored.verdict == "error" and "has no schema" in (ignored.reason or "")


def test_per_function_parameter_schema(project: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "pyproject.toml").write_text(CONFIG.replace(
        '[tool.sparkeq.schemas]\norders = "id INT NOT NULL, amount INT"',
        '[tool.sparkeq.schemas."jobs/old.py::big"]\norders = "id INT NOT NULL, amount INT"'))
    monkeypatch.chdir(project)
    assert main(["check", "jobs/old.py::big", "jobs/new.py::big"]) == 0
    assert "EQUIVALENT" in capsys.readouterr().out
    # another function gets no schema from that entry
    assert main(["check", "jobs/new.py::big_wrong", "jobs/new.py::big"]) == 3


def test_cli_flags_win_over_the_file(project: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    # --schema after the file's: the same name is replaced (here 'id' becomes a BIGINT)
    code = main(["check", "jobs/old.py::big", "jobs/new.py::big_wrong", "--json",
                 "--schema", "orders=id BIGINT NOT NULL, amount INT"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["counterexample"]["left"]["columns"] == [["id", "bigint"]]
    assert main(["check", "jobs/old.py::big", "jobs/new.py::big_wrong", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["counterexample"]["left"]["columns"] == [["id", "int"]]
    assert main(["check", "jobs/old.py::big", "jobs/new.py::big", "--no-config"]) == 3
    assert "has no schema" in capsys.readouterr().err


def test_malformed_config_is_a_located_input_error(project: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "pyproject.toml").write_text("[tool.sparkeq]\ntimeout = -1\n")
    monkeypatch.chdir(project)
    assert main(["check", "jobs/old.py::big", "jobs/new.py::big"]) == 3
    err = capsys.readouterr().err
    assert "pyproject.toml:1:1: [tool.sparkeq] 'timeout' must be a positive number" in err
    (project / "pyproject.toml").write_text("[tool.sparkeq]\ntimout = 5\n")
    assert main(["check", "jobs/old.py::big", "jobs/new.py::big"]) == 3
    assert "unknown key(s) timout" in capsys.readouterr().err


def test_batch_reads_the_config(project: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    (project / "tables.sql").write_text("CREATE TABLE orders (id INT NOT NULL, amount INT);\n")
    (project / "pyproject.toml").write_text('[tool.sparkeq]\nschema-files = ["tables.sql"]\n')
    pair = {"left": "jobs/old.py::big", "right": "jobs/new.py::big"}
    (project / "pairs.jsonl").write_text(json.dumps(pair))
    assert main(["batch", "pairs.jsonl", "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["verdict"] == "equivalent"


def test_include_and_exclude_select_paths(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sparkeq]\ninclude = ["jobs/*"]\nexclude = ["jobs/tmp_*"]\n')
    found = cfg.find(str(tmp_path))
    assert found.selects(str(tmp_path / "jobs" / "a.py"))
    assert found.selects(str(tmp_path / "jobs" / "deep" / "a.py"))  # fnmatch: * crosses directories
    assert not found.selects(str(tmp_path / "jobs" / "tmp_a.py"))
    assert not found.selects(str(tmp_path / "lib" / "a.py"))
