"""A tiny seeded random generator for the compiled search (xorshift64*).

Each search owns its state (a one-element ``uint64`` array), so searches stepped
together or run on several threads never share randomness, and a seed reproduces a
search exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MULTIPLIER = np.uint64(2685821657736338717)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def new_state(seed: int) -> np.ndarray:
    """A generator state from a non-negative integer seed (never the all-zero state)."""
    state = np.array(
        [(int(seed) * 0x9E3779B97F4A7C15 + 1) % (1 << 64)], dtype=np.uint64
    )
    if state[0] == 0:
        state[0] = _GOLDEN
    return state


@njit(cache=True, nogil=True)
def next_random(state: np.ndarray) -> np.uint64:
    """The next 64 random bits."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * _MULTIPLIER


@njit(cache=True, nogil=True)
def random_below(state: np.ndarray, bound: int) -> int:
    """A uniform integer in [0, bound) (bound ≥ 1), by multiply-shift of 32 bits."""
    high = next_random(state) >> np.uint64(32)
    return np.int64((high * np.uint64(bound)) >> np.uint64(32))
