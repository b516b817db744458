"""The small strings of a class: join codes, secrets, seats, and nicknames.

A join code is read off a board or a projector and typed on a phone, so its letters
cannot be mistaken for one another: no 0/O, no 1/I/l (nor L, which a phone may offer as l).

    >>> normalize_code(" ab-c 2d "), is_code("ABC2D"), is_code("AB0CD")
    ('ABC2D', True, False)
    >>> clean_nickname("  Ada\\n Lovelace  "), clean_nickname("x" * 30)[-1]
    ('Ada Lovelace', 'x')
    >>> len(clean_nickname("x" * 30))
    20
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0 O 1 I L
CODE_LENGTH = 5  # 31**5: 28 million codes for a few dozen classes
MAX_NICKNAME = 20
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
_SEAT = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_code(taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A join code no live class has."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normalize_code(text: str) -> str:
    """What a student typed, as a code: upper case, without spaces or dashes."""
    return re.sub(r"[\s\-_.]", "", str(text)).upper()[: CODE_LENGTH * 4]


def is_code(text: str) -> bool:
    """Whether text can be a join code (so nothing else is ever looked up)."""
    return _CODE.fullmatch(text) is not None


def new_secret() -> str:
    """The teacher's secret: kept in the teacher's session only, never in a URL."""
    return secrets.token_urlsafe(18)


def new_seat() -> str:
    """A student's seat: their own page's URL carries it, so a reload keeps their answers."""
    return secrets.token_urlsafe(12)


def is_seat(text: str) -> bool:
    return _SEAT.fullmatch(text) is not None


def digest(secret: str) -> str:
    """What the store keeps of a secret (the snapshot on disk never holds the secret).

    >>> digest("s") == digest("s"), len(digest("s"))
    (True, 64)
    """
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(secret: object, kept_digest: str) -> bool:
    """Whether a secret someone gives is the one kept, in constant time.

    >>> matches("s", digest("s")), matches("t", digest("s")), matches(None, digest("s"))
    (True, False, False)
    """
    if not isinstance(secret, str) or not secret:
        return False
    return hmac.compare_digest(digest(secret), kept_digest)


def clean_nickname(text: object) -> str:
    """A nickname as the class shows it: one line, trimmed, at most MAX_NICKNAME characters
    ("" for none). It is shown escaped everywhere; this only bounds it."""
    if not isinstance(text, str):
        return ""
    one_line = " ".join(text.split())
    return "".join(ch for ch in one_line if ch.isprintable())[:MAX_NICKNAME].strip()
