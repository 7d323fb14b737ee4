"""The DataFrame/SQL soundness fuzzer at nightly scale: any seed, 2,000 pairs by default.

    .venv/bin/python scripts/fuzz_rel_nightly.py --seed 7 [--pairs 2000] [--workers 2] [--timeout 1]
                                                 [--trials 150] [--hours H] [--report fuzz-rel.json]

``scripts/fuzz_nightly.py --flavor rel`` with these defaults: the pairs and the judge are
``tests/test_rel_soundness_fuzz.py``'s (relational kernel programs and variants from
``tests/relfuzzutil.py``, checked by ``verifier.check(..., replay=False)``, judged by the reference
interpreter). Exit status 0 when there was no violation and no crash, 1 otherwise; a violation is
printed with both programs and replays from its seed and index (``check_pair(seed, index, timeout,
trials)`` in ``tests/test_rel_soundness_fuzz.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_nightly import main  # noqa: E402

DEFAULTS = ["--flavor", "rel", "--pairs", "2000", "--timeout", "1", "--trials", "150"]

if __name__ == "__main__":
    sys.exit(main([*DEFAULTS, *sys.argv[1:]]))  # later options win: the user's override the defaults
