"""Event and run ids, made as the TypeScript SDK makes them (packages/sdk/src/ids.ts)."""

import os
import threading
import time
from typing import List, Optional

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: sorts like its values

_lock = threading.Lock()
_last_ms = -1
_last_random: List[int] = []


def new_id(now_ms: Optional[int] = None) -> str:
    """A ULID-like id: 10 base32 digits of the time in ms, then 16 random ones (26 characters).

    Ids made later sort after earlier ones; within one millisecond the random part is incremented
    (monotonic), so the ids one process makes are strictly increasing, from any thread.
    """
    global _last_ms, _last_random
    with _lock:
        now = time.time_ns() // 1_000_000 if now_ms is None else now_ms
        if now <= _last_ms:
            now = _last_ms
            digits = list(_last_random)
            i = len(digits) - 1
            while i >= 0 and digits[i] == 31:
                digits[i] = 0
                i -= 1
            if i < 0:
                raise RuntimeError("cuescope: id space of this millisecond exhausted")
            digits[i] += 1
        else:
            digits = [b & 31 for b in os.urandom(16)]
        _last_ms = now
        _last_random = digits
    prefix = ""
    t = now
    for _ in range(10):
        prefix = ALPHABET[t % 32] + prefix
        t //= 32
    return prefix + "".join(ALPHABET[d] for d in digits)
