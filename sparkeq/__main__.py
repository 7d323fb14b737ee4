"""``python -m sparkeq``: the ``sparkeq`` command (same arguments, same exit codes)."""

import sys

from verifier.interfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
