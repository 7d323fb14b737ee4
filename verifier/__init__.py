"""sparkeq's verifier: ``verifier.check(left, right, **options) -> Result``, the public facade.

It wires the layers below it: the decision core (``verifier.core.check``) is handed the Spark runtime's
replayer (``verifier.runtime.replayer.SparkReplayer``) and the plain-language wording of reasons
(``verifier.interfaces.reasons.summarise``) as ``verifier.core.services.Services``, so that the core
depends on neither. The CLI, the hook, batches and ``sparkeq`` call these functions.

Kept light on purpose: importing ``verifier`` (the CLI does, on every run) must not pay for Z3, the
frontend or Spark; ``check`` imports the pipeline on first call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.core.result import Result
    from verifier.core.services import Services

__all__ = ["Result", "__version__", "check", "replay_counterexample", "replay_counterexamples"]

__version__ = "0.2.0"
"""sparkeq's version, the one ``sparkeq --version`` prints: a constant, because reading the installed
distribution's metadata costs tens of milliseconds at start-up and is stale in an editable install.
``pyproject.toml`` repeats it (tests/test_startup.py checks that the two agree)."""


def check(left: Any, right: Any, **options: Any) -> Result:
    """Check two programs for equivalence under Spark's semantics; see ``verifier.core.check``.

    The project's ``[tool.sparkeq]`` (``verifier.interfaces.config``, found from the checked files or
    the current directory) supplies the timeout and the schemas the caller did not give; ``config=False``
    ignores it, ``config="path/to/pyproject.toml"`` names it."""
    from verifier.core.check import check as _check
    from verifier.core.result import Result
    from verifier.interfaces.config import ConfigError, check_options

    try:
        options = check_options(left, right, options)
    except ConfigError as exc:
        return Result("error", reason=str(exc))
    return _check(left, right, services=services(), **options)


def replay_counterexample(result: Result, left: Any, right: Any, **options: Any) -> Result:
    """Replay the counterexample of ``check(..., replay=False)`` on Spark, as ``replay=True`` would have."""
    return replay_counterexamples([(result, left, right)], **options)[0]


def replay_counterexamples(items: Sequence[tuple[Result, Any, Any]], *, replay_timeout: float | None = None,
                           progress: Callable[[str], None] | None = None, **options: Any) -> list[Result]:
    """``replay_counterexample`` for many ``(result, left, right)`` in this process's one Spark session,
    within ``replay_timeout`` seconds in all (None: no limit). A pair the budget does not reach keeps its
    verdict, with the warning "not replayed on Spark: timed out".
    ``progress`` receives each step (starting Spark, running LEFT, running RIGHT) as a line of text."""
    from verifier.core.check import replay_counterexamples as _replay_all
    from verifier.runtime.bounded import ReplayTimedOut, deadline, within
    from verifier.runtime.progress import reporting

    options.pop("config", None)  # the check already applied [tool.sparkeq]
    end = deadline(replay_timeout)
    out: list[Result] = []
    with reporting(progress, end):
        if end is None:  # no budget: all at once (whole scripts then share one process and one JVM)
            return _replay_all(items, services=services(), **options)
        for item in items:  # within a budget, pair by pair: a timeout keeps the replays already done
            left_s = end - time.monotonic()
            if left_s <= 0:
                out.append(with_warning(item[0], timed_out(replay_timeout)))
                continue
            try:
                out.extend(within(left_s, lambda item=item: _replay_all([item], services=services(),
                                                                        **options)))
            except ReplayTimedOut:
                out.append(with_warning(item[0], timed_out(replay_timeout)))
                end = time.monotonic()  # the budget is spent: the pairs after it are not replayed
    return out


def with_warning(result: Result, warning: str) -> Result:
    """``result`` (verdict, assumptions and all) with one more warning."""
    import dataclasses

    return dataclasses.replace(result, warnings=(*result.warnings, warning))


def timed_out(seconds: float | None) -> str:
    """The warning of a counterexample the replay budget did not reach."""
    return (f"counterexample not replayed on Spark: timed out (the replay budget of {seconds:g} s ran out; "
            "raise --replay-timeout, or use --no-replay)")


def services() -> Services:
    """The core's services as the facade wires them: Spark replay and the plain-language reasons."""
    from verifier.core.services import Services
    from verifier.interfaces.reasons import summarise
    from verifier.runtime.replayer import SparkReplayer

    return Services(replayer=SparkReplayer(), summarise=summarise)


def __getattr__(name: str) -> Any:
    if name == "Result":
        from verifier.core.result import Result

        return Result
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")
