"""What a player's name may be: checked wherever a profile gets a new name.

A name is shown on one line at the table and travels inside game actions, whose schema
allows at most :data:`MAX_NAME` characters (``companion.session.move_schemas``), so a
longer name could never act in a game.
"""

from __future__ import annotations

import unicodedata

from companion.store.errors import BadName

#: The longest name a player may have, in characters (Unicode code points).
MAX_NAME = 64

#: Character categories a name may not hold: control characters, lone surrogates (not
#: storable as UTF-8) and line or paragraph separators (a name stays on one line).
_REFUSED = {"Cc", "Cs", "Zl", "Zp"}


def _shown(name: str) -> str:
    text = name if len(name) <= 24 else name[:21] + "..."
    return repr(text)


def check_name(name: object) -> str:
    """``name`` without surrounding spaces, if it can name a player.

    Raises:
        BadName: not text, empty, longer than :data:`MAX_NAME` characters, or holding
            control characters or line breaks.
    """
    if not isinstance(name, str):
        raise BadName(f"a player's name must be text, not {type(name).__name__}")
    clean = name.strip()
    if not clean:
        raise BadName("a player needs a name: it cannot be empty or only spaces")
    if len(clean) > MAX_NAME:
        raise BadName(f"a player's name can be at most {MAX_NAME} characters; {_shown(clean)} has {len(clean)}")
    if any(unicodedata.category(c) in _REFUSED for c in clean):
        raise BadName(f"a player's name cannot hold control characters or line breaks ({_shown(clean)})")
    return clean
