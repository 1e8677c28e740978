"""The engine protocol every game follows, and the small helpers engines share.

A game is an object (usually a module) with:

- ``NAME``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``: who it is for;
- ``RULES``: a tuple of :class:`Rule`, the house-rule settings with documented defaults;
- ``ACTIONS_HELP``: examples of its actions, shown by ``--help``;
- ``initial_state(config, players, seed)``: the state before the first action;
- ``legal_actions(state)``: every action the table may take now, as plain dicts;
- ``apply(state, action) -> (state, events)``: a new immutable state and what happened;
- ``summary(state)``: a :class:`Summary` (scores, who must act, the prompt in words).

States are immutable (frozen dataclasses of tuples); actions and events are plain
JSON-ready dicts. ``apply`` raises :class:`IllegalAction` for anything the rules forbid,
with a message a player understands, and the state it was given is untouched.

Hidden information (a hand, a concealed card, a deck list) lives only in the state.
``summary``, ``legal_actions`` and the events ``apply`` returns are *public*: the whole
table may see them, so they carry counts, never a concealed card. A game that keeps
something from part of the table adds two optional hooks (see :mod:`.views`):

- ``private_view(state, player) -> PrivateView``: what only ``player`` may see (their own
  concealed cards, and the actions that name them);
- ``public_action(action) -> dict``: the journal entry as the table may see it (an
  action naming a concealed card, such as the card drawn, with that name taken out).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from companion.errors import ExitCode, PurserError

Action = Mapping[str, Any]
Event = dict[str, Any]


#: The longest refusal message (characters); anything longer is cut, so a refusal never
#: echoes a huge input back in full.
MESSAGE_LIMIT = 600


def shown(value: Any, limit: int = 40) -> str:
    """``value`` (something a player typed) quoted for a message, cut short when long:
    ``'QH'``, ``'xxxx…' (100000 characters)``."""
    if isinstance(value, str) and len(value) > limit:
        quoted = repr(value[:limit])
        return f"{quoted[:-1]}…{quoted[-1]} ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _clipped(message: object) -> str:
    text = str(message)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


class IllegalAction(PurserError, ValueError):
    """An action the rules do not allow now; the message says why in table language."""

    exit_code = ExitCode.ILLEGAL

    def __init__(self, message: object = "") -> None:
        super().__init__(_clipped(message))


class ConfigError(PurserError, ValueError):
    """A house-rule setting that does not exist or has a value it cannot take."""

    exit_code = ExitCode.USAGE

    def __init__(self, message: object = "") -> None:
        super().__init__(_clipped(message))


@dataclass(frozen=True)
class Rule:
    """One house-rule setting: a name, its default and what it means.

    ``choices`` limits the values; ``minimum``/``maximum`` bound numbers.
    """

    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, value: Any) -> Any:
        """Convert ``value`` (text from a command line, or JSON) to this rule's type.

        Raises:
            ConfigError: the value has the wrong type or is out of range.
        """
        kind = type(self.default)
        try:
            if kind is bool:
                parsed: Any = _parse_bool(value)
            elif kind is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError(value)
                parsed = int(value)
            elif kind is float:
                parsed = float(value)
            elif kind is tuple:
                parsed = _parse_tuple(value, self.default)
            else:
                parsed = str(value)
        except (TypeError, ValueError):
            raise ConfigError(f"house rule {shown(self.key)} needs {_kind_words(kind)}, not {shown(value)}") from None
        if self.choices is not None and parsed not in self.choices:
            options = ", ".join(str(c) for c in self.choices)
            raise ConfigError(f"house rule {shown(self.key)} must be one of: {options} (got {shown(value)})")
        if self.minimum is not None and parsed < self.minimum:
            raise ConfigError(f"house rule {shown(self.key)} must be at least {self.minimum} (got {shown(value)})")
        if self.maximum is not None and parsed > self.maximum:
            raise ConfigError(f"house rule {shown(self.key)} must be at most {self.maximum} (got {shown(value)})")
        return parsed

    def describe(self) -> str:
        """One line for help screens: ``key (default X): what it means``."""
        default = ",".join(map(str, self.default)) if isinstance(self.default, tuple) else self.default
        extra = f" [{' | '.join(map(str, self.choices))}]" if self.choices else ""
        return f"{self.key} (default {default}){extra}: {self.help}"


def _parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def _parse_tuple(value: Any, default: tuple[Any, ...]) -> tuple[Any, ...]:
    items = value.split(",") if isinstance(value, str) else list(value)
    item_kind = type(default[0]) if default else str
    return tuple(item_kind(str(v).strip()) if item_kind is not str else str(v).strip() for v in items)


def _kind_words(kind: type) -> str:
    return {bool: "yes or no", int: "a whole number", float: "a number", tuple: "a comma-separated list"}.get(
        kind, "text"
    )


def resolve_config(rules: Sequence[Rule], overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every rule's value: the defaults with ``overrides`` parsed and applied.

    Raises:
        ConfigError: an unknown rule name or a bad value.
    """
    by_key = {r.key: r for r in rules}
    config = {r.key: r.default for r in rules}
    for key, value in (overrides or {}).items():
        rule = by_key.get(key)
        if rule is None:
            known = ", ".join(sorted(by_key)) or "none"
            raise ConfigError(f"there is no house rule called {shown(key)} (known: {known})")
        config[key] = rule.parse(value)
    return config


@dataclass(frozen=True)
class PrivateView:
    """What one player may see and the rest of the table may not.

    ``concealed``: the names of their own concealed cards; ``actions``: actions open to
    them that name those cards (the public ``legal_actions`` list the same moves without
    the names); ``detail``: game-specific, JSON-ready facts.
    """

    player: str
    concealed: tuple[str, ...] = ()
    actions: tuple[dict[str, Any], ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output (for that player's eyes only)."""
        return {
            "player": self.player,
            "concealed": list(self.concealed),
            "actions": [dict(a) for a in self.actions],
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Summary:
    """What the table needs to see now.

    ``scores`` maps each player to their score (and a seat the game plays itself, such as 7
    Seize's 2-player Interloper, which can win); ``to_act`` names whoever the game waits
    on (empty when over); ``prompt`` says in words what must happen next; ``detail`` holds
    game-specific, JSON-ready facts for screens (stashes, sheets, ...).
    """

    scores: dict[str, float]
    to_act: tuple[str, ...]
    prompt: str
    over: bool = False
    winners: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output."""
        return {
            "scores": dict(self.scores),
            "to_act": list(self.to_act),
            "prompt": self.prompt,
            "over": self.over,
            "winners": list(self.winners),
            "detail": self.detail,
        }


@runtime_checkable
class Game(Protocol):
    """What the session layer needs from a game (a module or an object)."""

    NAME: str
    TITLE: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    RULES: tuple[Rule, ...]
    ACTIONS_HELP: str

    def initial_state(self, config: Mapping[str, Any], players: Sequence[str], seed: int) -> Any: ...

    def legal_actions(self, state: Any) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...

    def summary(self, state: Any) -> Summary: ...


def event(kind: str, text: str, **data: Any) -> Event:
    """An event: ``{"type": kind, "text": text, **data}``; ``text`` is for players."""
    return {"type": kind, "text": text, **data}


def check_players(players: Sequence[str], minimum: int, maximum: int, title: str) -> tuple[str, ...]:
    """Validate a seating of player names; returns them as a tuple.

    Raises:
        ConfigError: too few or too many players, a blank name or a repeated name.
    """
    names = tuple(p.strip() for p in players)
    if not minimum <= len(names) <= maximum:
        raise ConfigError(f"{title} is for {minimum} to {maximum} players, not {len(names)}")
    if any(not n for n in names):
        raise ConfigError("every player needs a name")
    seen = {n.casefold() for n in names}
    if len(seen) != len(names):
        raise ConfigError("two players have the same name; give each a different one")
    return names


def action_type(action: Any) -> str:
    """The ``type`` of an action.

    Raises:
        IllegalAction: the action is not an object with a text ``type``.
    """
    if not isinstance(action, Mapping):
        raise IllegalAction('an action must be a JSON object such as {"type": "..."}')
    kind = action.get("type")
    if not isinstance(kind, str) or not kind:
        raise IllegalAction('the action has no "type"')
    return kind


def get_field(action: Action, name: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
    """Read one field of an action, checking its type.

    Raises:
        IllegalAction: the field is missing (unless ``optional``) or has the wrong type.
    """
    if name not in action or action[name] is None:
        if optional:
            return None
        raise IllegalAction(f'the {shown(action.get("type", "action"))} action needs "{name}"')
    value = action[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise IllegalAction(f'"{name}" must be {_kind_words(kinds[0])}, not {shown(json.dumps(value))}')
    if not isinstance(value, kinds):
        raise IllegalAction(f'"{name}" must be {_kind_words(kinds[0])}, not {shown(json.dumps(value))}')
    return value


def get_player(action: Action, players: Sequence[str], name: str = "player") -> str:
    """Read a player field and match it to a seated player (case-insensitive).

    Raises:
        IllegalAction: missing, or nobody of that name is playing.
    """
    value = get_field(action, name, str)
    for p in players:
        if p.casefold() == value.strip().casefold():
            return p
    raise IllegalAction(f"nobody called {shown(value)} is playing (players: {', '.join(players)})")
