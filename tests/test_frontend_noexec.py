"""The frontend never executes the user's code: translating a module whose import would write a file
(at module level, in a default argument, in a decorator, in a class body) must not create the file."""

from __future__ import annotations

from frontend import translate_file, translate_source


def _module(marker: str) -> str:
    return f'''
import pathlib
pathlib.Path({marker!r}).write_text("imported")
open({marker!r} + ".2", "w").write("x")


class Side:
    pathlib.Path({marker!r} + ".3").write_text("class body")


def pipeline(R: "RDD[int]"):
    return R.map(lambda x: x + 1).filter(lambda x: x > 0)


if __name__ == "__main__":
    pathlib.Path({marker!r} + ".4").write_text("main")
'''


def test_translating_does_not_import(tmp_path) -> None:
    marker = tmp_path / "side_effect.txt"
    path = tmp_path / "job_with_side_effect.py"
    path.write_text(_module(str(marker)))
    program = translate_file(str(path))
    assert program.name == "pipeline"
    program = translate_source(path.read_text(), "pipeline", filename=str(path))
    assert list(tmp_path.iterdir()) == [path]
    assert not marker.exists()


def test_rejected_code_is_not_run_either(tmp_path) -> None:
    marker = tmp_path / "boom.txt"
    source = (f"import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n\n"
              "def p(R):\n    return R.zipWithIndex()\n")
    try:
        translate_source(source)
    except Exception:  # noqa: BLE001 - the point is only the absence of the side effect
        pass
    assert not marker.exists()
