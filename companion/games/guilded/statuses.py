"""Status counters: what each status is, how more of it stacks, and when it acts.

Counts are stored per mercenary as ``{name: stored}``. For most statuses the stored
number is the count on the table. Bleed (to 5, then only in fives) and Poison (to 3,
then only in threes) follow the ``stack_overflow`` house rule: with ``drop`` the stored
number is always a legal count (additions that do not make a whole step are lost);
with ``bank`` it is the raw total and :func:`effective` gives the count that acts.

When each status acts (see :data:`TIMING`) is applied by the phase machinery in
:mod:`companion.games.guilded.phases`; this module only holds the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import IllegalAction, shown


@dataclass(frozen=True)
class StatusDef:
    """One status: its group (``physical``, ``magical``, ``beneficial``), its shape and its rule text.

    ``shape`` is ``counters`` (a count), ``flag`` (on or off) or ``level`` (a number X).
    ``cap``/``step``: counts grow freely to ``cap``, then only in multiples of ``step``
    (``step`` None: ``cap`` is the most there can be).
    """

    name: str
    group: str
    shape: str
    text: str
    cap: int | None = None
    step: int | None = None


STATUSES: dict[str, StatusDef] = {
    s.name: s
    for s in (
        StatusDef(
            "exhaust",
            "physical",
            "counters",
            "cannot move, attack, plunder or activate abilities; one counter comes off at the start "
            "of its controller's Beginning phase",
        ),
        StatusDef(
            "bleed",
            "physical",
            "counters",
            "takes damage equal to its counters in each End phase; stacks to 5, then only in fives",
            cap=5,
            step=5,
        ),
        StatusDef(
            "blind",
            "physical",
            "flag",
            "its attacks, attack abilities and plunders need a won coin flip; ends at its controller's next End phase",
        ),
        StatusDef(
            "poison",
            "physical",
            "counters",
            "damage dealt to it is increased by its counters; stacks to 3, then only in threes",
            cap=3,
            step=3,
        ),
        StatusDef("fog", "magical", "flag", "stands in fog, so it is blinded; the fog lifts at the next End phase"),
        StatusDef(
            "frost",
            "magical",
            "counters",
            "1: movement -1; 2: movement -2; 3: cannot move or attack; removed at the end of its "
            "controller's First Movement phase",
            cap=3,
        ),
        StatusDef(
            "burn",
            "magical",
            "counters",
            "in its controller's next Attack phase: 1: 1 true damage; 2: 2 true damage; 3: 4 pure "
            "damage and all equipped treasures lost; removed at the end of that Attack phase",
            cap=3,
        ),
        StatusDef("silence", "magical", "flag", "cannot be used to activate ability cards; ends at the next End phase"),
        StatusDef(
            "stealth",
            "magical",
            "flag",
            "cannot be targeted; its next damage is true damage; lost when it attacks or uses an "
            "ability, or when an adjacent enemy spends 1 movement to reveal it",
        ),
        StatusDef("regen", "beneficial", "level", "heals X health at the start of its controller's Rally phase"),
        StatusDef("fortify", "beneficial", "level", "extra health: level 1 +1, 2 +3, 3 +6, 4 +9", cap=4),
        StatusDef("leech", "beneficial", "flag", "damage it deals heals it by the same amount"),
    )
}

GROUPS = ("physical", "magical", "beneficial")

#: Health Fortify adds at each level.
FORTIFY_BONUS = (0, 1, 3, 6, 9)

#: When each timed status acts, for screens and docs: (status, moment, effect).
TIMING: tuple[tuple[str, str, str], ...] = (
    ("exhaust", "start of its controller's Beginning phase", "one counter removed"),
    ("regen", "start of its controller's Rally phase", "heals X (not above its maximum health)"),
    ("frost", "end of its controller's First Movement phase", "all counters removed"),
    (
        "burn",
        "start of its controller's Attack phase (burn placed before that turn)",
        "1/2: 1/2 true damage; 3: 4 pure damage, treasures lost",
    ),
    ("burn", "end of that Attack phase", "all counters removed"),
    ("bleed", "start of each End phase (house rule bleed_timing)", "damage equal to its counters"),
    ("blind", "start of its controller's next End phase", "removed"),
    ("fog", "start of the next End phase", "removed (tiles and mercenaries)"),
    ("silence", "start of the next End phase", "removed"),
)


def flag_words(name: str) -> str:
    """An on/off status as an adjective: ``blind``, ``silenced``, ``stealthed`` ..."""
    return {"fog": "in fog", "silence": "silenced", "stealth": "stealthed", "leech": "leeching"}.get(name, name)


def at_most(status: StatusDef, stored: int) -> bool:
    """Whether adding more of ``status`` to ``stored`` can change nothing (a flag already on,
    or a count at its cap with no steps beyond)."""
    if status.shape == "flag":
        return stored > 0
    return status.cap is not None and status.step is None and stored >= status.cap


def find_status(name: str) -> StatusDef:
    """The status called ``name`` (case-insensitive).

    Raises:
        IllegalAction: no such status.
    """
    status = STATUSES.get(name.strip().lower())
    if status is None:
        raise IllegalAction(f"there is no status called {shown(name)} (statuses: {', '.join(STATUSES)})")
    return status


def normalise(status: StatusDef, count: int) -> int:
    """The count that acts for ``count`` counters placed: capped, and past the cap whole steps only."""
    if status.cap is None or count <= status.cap:
        return max(0, count)
    if status.step is None:
        return status.cap
    return status.cap + (count - status.cap) // status.step * status.step


def effective(name: str, stored: int) -> int:
    """The count of status ``name`` that acts, from its stored number."""
    return normalise(STATUSES[name], stored)


def stack(name: str, stored: int, added: int, overflow: str) -> int:
    """The new stored number after ``added`` counters (or levels) of ``name`` are placed.

    ``overflow`` is the ``stack_overflow`` house rule (``drop`` or ``bank``). Flags are 1
    whatever is added.
    """
    status = STATUSES[name]
    if status.shape == "flag":
        return 1
    total = stored + added
    if overflow == "bank" and status.step is not None:
        return total
    return normalise(status, total)


def reduce(name: str, stored: int, removed: int | None, overflow: str) -> int:
    """The stored number after ``removed`` counters come off (None: all of them)."""
    status = STATUSES[name]
    if removed is None or status.shape == "flag":
        return 0
    left = max(0, stored - removed)
    if overflow == "bank" and status.step is not None:
        return left
    return normalise(status, left)


def fortify_bonus(level: int) -> int:
    """Health Fortify at ``level`` (0-4) adds."""
    return FORTIFY_BONUS[max(0, min(level, 4))]


def frost_penalty(count: int) -> int | None:
    """Movement lost to ``count`` frost counters; None when the mercenary cannot move at all."""
    if count >= 3:
        return None
    return max(0, count)


def burn_effect(count: int) -> tuple[int, str, bool]:
    """What ``count`` burn counters do: (damage, damage type, treasures lost)."""
    if count >= 3:
        return 4, "pure", True
    return count, "true", False
