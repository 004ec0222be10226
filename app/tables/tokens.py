"""Unguessable invite codes and seat tokens; only token hashes are stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# 24 random bytes = 192 bits, above the 128-bit floor the issue sets.
_TOKEN_BYTES = 24


def new_invite_code() -> str:
    return secrets.token_urlsafe(_TOKEN_BYTES)


# A table's short code (the TV shows it to be typed): six characters from letters and digits
# that cannot be mistaken for one another (no 0/o, no 1/l/i), stored in lower case, shown in
# upper case, read in either. 31**6, about 890 million codes; guessing one is rate-limited.
SHORT_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
SHORT_LENGTH = 6


def new_short_code() -> str:
    return "".join(secrets.choice(SHORT_ALPHABET) for _ in range(SHORT_LENGTH))


def read_short_code(typed: str) -> str | None:
    """The stored form of a short code as someone typed it (any case, spaces and dashes
    ignored), or None if it cannot be one."""
    code = "".join(ch for ch in typed.lower() if ch not in " -")
    if len(code) != SHORT_LENGTH or any(ch not in SHORT_ALPHABET for ch in code):
        return None
    return code


def new_seat_token() -> str:
    return secrets.token_urlsafe(_TOKEN_BYTES)


def new_host_token() -> str:
    return secrets.token_urlsafe(_TOKEN_BYTES)


def hash_token(token: str) -> str:
    """SHA-256 hex digest: a plain hash suffices, the token itself is 192 random bits."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(stored_hash, hash_token(token))


def seat_cookie_name(invite_code: str) -> str:
    """One cookie per table, so a browser can sit at several tables at once."""
    return f"mu_seat_{invite_code}"


def host_cookie_name(invite_code: str) -> str:
    """The creator's host token for this table (HttpOnly: scripts never read it)."""
    return f"mu_host_{invite_code}"
