"""The journal's hash chain: what a writer names to say which game it saw.

Entry ``n`` of a game's journal carries ``hash_n = sha256(hash_{n-1} + "\\n" + canonical
JSON of action n)`` with ``hash_0 = GENESIS``. The hash of the entry at the cursor (the
*head*) therefore stands for the whole sequence of actions in effect: two views of a game
with the same head are the same game. Unlike a count of actions, an undo followed by a
different move gives a different head, so a writer still holding the old view is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

#: The head of a game with no action in effect.
GENESIS = "0" * 64


def canonical(data: Any) -> str:
    """``data`` as canonical JSON text (sorted keys, no spaces, UTF-8 kept, no NaN).

    Raises:
        ValueError, TypeError: ``data`` is not plain JSON.
    """
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def chain(previous: str, action: Mapping[str, Any]) -> str:
    """The hash of an entry holding ``action`` after the entry whose hash is ``previous``."""
    text = previous + "\n" + canonical(dict(action))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
