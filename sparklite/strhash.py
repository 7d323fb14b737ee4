"""Python's ``hash(str)`` as PySpark's workers compute it (``PYTHONHASHSEED=0``).

Why: Spark sends key ``k`` to reduce partition ``portable_hash(k) % n``, and for strings
``portable_hash`` is ``hash``, which depends on the hash seed. PySpark's ``SparkContext`` sets
``PYTHONHASHSEED`` for its Python workers (``"0"`` unless the driver has one), so the interpreter must
reproduce seed 0 whatever seed sparkeq itself runs under. CPython 3.11+ hashes the bytes of a string's
compact representation (1, 2 or 4 bytes per code point, by the widest code point) with SipHash-1-3 keyed
with zeros when the seed is 0; the empty string hashes to 0 and ``-1`` is mapped to ``-2``.
"""

from __future__ import annotations

import sys

_MASK = (1 << 64) - 1


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _MASK


def _siphash13(data: bytes, k0: int = 0, k1: int = 0) -> int:
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rnd() -> None:
        nonlocal v0, v1, v2, v3
        v0 = (v0 + v1) & _MASK
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _MASK
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _MASK
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _MASK
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)

    n = len(data)
    end = n - n % 8
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        rnd()
        v0 ^= m
    tail = int.from_bytes(data[end:], "little") | ((n & 0xFF) << 56)
    v3 ^= tail
    rnd()
    v0 ^= tail
    v2 ^= 0xFF
    rnd()
    rnd()
    rnd()
    return v0 ^ v1 ^ v2 ^ v3


def str_hash_seed0(s: str) -> int:
    """``hash(s)`` in a CPython 3.11+ process started with ``PYTHONHASHSEED=0``."""
    if not s:
        return 0
    widest = max(map(ord, s))
    width = 1 if widest < 0x100 else 2 if widest < 0x10000 else 4
    data = b"".join(ord(c).to_bytes(width, sys.byteorder) for c in s)
    h = _siphash13(data)
    if h >= 1 << 63:
        h -= 1 << 64
    return -2 if h == -1 else h
