"""The project's test-only fault hook, framework-free: which faults are armed in this server process,
and how the project's views take a strike. `/project/test/fault` arms one, `/project/test/reset`
disarms all (the runner calls it whenever a new session takes the process).

The faults are those of the adapter protocol (Documentation/adapter-protocol.md, *Fault*) that strike
inside the server: the store faults strike the project's accepted-list view, `credential-lookup-failure`
the package's passkey sign-in endpoint, which the project wraps so that it answers 503 before the
package looks anything up. The network faults (`network-failure`, `answer-lost-after-commit`) are not
here: the server works as usual, and the app's side of the connection fails (loopback_rp.py, HttpClient).
"""

import threading

KINDS = ("partial-credential-data", "pagination-failure", "credential-list-timeout", "stale-cache",
         "credential-lookup-failure")

_lock = threading.Lock()
_armed = {}  # kind -> remaining strikes, or None for "until the session ends"
_cache = {}  # user key -> the last list the accepted-list view answered (for stale-cache)


def arm(kind, count):
    if kind not in KINDS:
        raise ValueError(f"unknown fault kind {kind!r}")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
        raise ValueError("count must be a positive integer")
    with _lock:
        _armed[kind] = count


def reset():
    with _lock:
        _armed.clear()
        _cache.clear()


def take(kind):
    """Uses one strike of a fault; False when it is not armed."""
    with _lock:
        if kind not in _armed:
            return False
        remaining = _armed[kind]
        if remaining is not None:
            if remaining <= 1:
                del _armed[kind]
            else:
                _armed[kind] = remaining - 1
        return True


class StoreFailure(Exception):
    """The project could not read the account's list whole: `status` is the HTTP answer it gives."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def accepted_list(user_key, read_store):
    """The account's accepted credentials as the project's list view answers them, with the store
    faults applied: `read_store()` reads the package's records (a list of dictionaries). A list that
    the store could not deliver whole is refused (StoreFailure), never answered in part; a stale cache
    is checked against the store and the store's list answered when they differ."""
    if take("credential-list-timeout"):
        raise StoreFailure(504, "the credential query timed out")
    items = read_store()
    if take("pagination-failure"):
        raise StoreFailure(500, "a page of the credential list failed to load")
    if items and take("partial-credential-data"):
        delivered, total = len(items) - 1, len(items)
        raise StoreFailure(500, f"the store returned {delivered} of {total} credentials")
    if take("stale-cache"):
        cached = _cache.get(user_key)
        if cached is not None and cached == items:
            return list(cached)
    _cache[user_key] = list(items)
    return items
