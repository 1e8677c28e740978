"""The state of a Guilded Treasures match: seats, mercenaries, the board and the turn.

Everything is a frozen dataclass of tuples so states compare by value and replaying a
journal gives an equal state. Helpers here read and rebuild states; rules live elsewhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import IllegalAction, shown
from companion.games.guilded import statuses
from companion.games.guilded.settings import Settings

PHASES = ("beginning", "draw", "acquire", "rally", "first_movement", "attack", "second_movement", "end")

#: A battlefield tile: (seat whose side it is on, row 1-3, column 1-4). Row 1 is that
#: side's Guild Hall (the row nearest its player), row 3 its front row.
Tile = tuple[int, int, int]

ROWS = 3
COLS = 4


@dataclass(frozen=True)
class Treasure:
    """A treasure equipped to a mercenary, with the armour it gives (if any)."""

    name: str
    armour: int = 0
    magic_armour: int = 0


@dataclass(frozen=True)
class Merc:
    """A mercenary in play.

    Stats are as printed (``melee``, ``ranged`` with ``ranged_type`` physical for a
    crossbow or magic for a staff, ``defence`` for a shield, ``move``); ``armour`` and
    ``magic_armour`` are its own, treasures add theirs. ``role`` is ``champion``,
    ``guild_master`` or empty. Per-turn bookkeeping: ``attacked``, ``equipped``,
    ``moved`` (spaces used), ``frost_seen`` (frost when First Movement began).
    """

    id: str
    name: str
    owner: int
    base_health: int
    health: int
    bounty: int
    armour: int = 0
    magic_armour: int = 0
    defence: int = 0
    defence_ready: bool = True
    melee: int = 0
    ranged: int = 0
    ranged_type: str = "physical"
    move: int = 0
    stars: int = 0
    role: str = ""
    tile: Tile | None = None
    statuses: tuple[tuple[str, int], ...] = ()
    burn_turn: int | None = None
    treasures: tuple[Treasure, ...] = ()
    attacked: bool = False
    equipped: bool = False
    moved: int = 0
    frost_seen: int = 0
    next_true: bool = False

    def stored(self, name: str) -> int:
        """The stored number of status ``name`` (0 when absent)."""
        for key, value in self.statuses:
            if key == name:
                return value
        return 0

    def status(self, name: str) -> int:
        """The count of status ``name`` that acts (1 for a flag that is on)."""
        return statuses.effective(name, self.stored(name))

    def with_status(self, name: str, value: int) -> Merc:
        """A copy with status ``name`` stored as ``value`` (0 removes it)."""
        items = {k: v for k, v in self.statuses if k != name}
        if value > 0:
            items[name] = value
        return replace(self, statuses=tuple(sorted(items.items())))

    @property
    def max_health(self) -> int:
        """Base health plus Fortify's bonus."""
        return self.base_health + statuses.fortify_bonus(self.status("fortify"))

    @property
    def total_armour(self) -> int:
        """Armour including equipped treasures."""
        return self.armour + sum(t.armour for t in self.treasures)

    @property
    def total_magic_armour(self) -> int:
        """Magic armour including equipped treasures."""
        return self.magic_armour + sum(t.magic_armour for t in self.treasures)

    @property
    def exhausted(self) -> bool:
        return self.status("exhaust") > 0


@dataclass(frozen=True)
class Seat:
    """One player's counts: Vault (loot), deck, hand, warchest; and per-turn flags.

    ``out`` is why the player is out of the game (empty while playing).
    """

    vault: int
    deck: int
    hand: int
    deck_size: int
    warchest: int = 0
    out: str = ""
    acquired: bool = False
    treasure_played: bool = False
    plundered: bool = False
    unequipped: bool = False
    mulligans: int = 0
    kept: bool = False
    roll: int | None = None
    deck_list: bool = False
    guild_master_played: bool = False


@dataclass(frozen=True)
class LootEntry:
    """One change to a Vault, with its reason."""

    seat: int
    change: int
    reason: str
    vault: int
    game: int
    turn: int


@dataclass(frozen=True)
class GuildedState:
    """A whole match. ``stage`` is ``building``, ``roll``, ``first``, ``pillars``,
    ``champions``, ``hands``, ``play`` or ``over``.

    ``units`` are the turn-takers in seating order (one seat each, or a team's seats when
    teammates share a turn); ``unit`` is whose turn it is, ``phase`` an index in
    :data:`PHASES`. Clock times are seconds as sent in actions' ``"at"``.
    """

    players: tuple[str, ...]
    sides: tuple[int, ...]
    settings: Settings
    seed: int
    rng: int
    stage: str
    game: int
    wins: tuple[int, ...]
    results: tuple[tuple[int, str], ...]
    seats: tuple[Seat, ...]
    mercs: tuple[Merc, ...]
    next_id: int
    pillars: tuple[Tile, ...]
    fog: tuple[Tile, ...]
    units: tuple[tuple[int, ...], ...]
    unit: int
    turn: int
    phase: int
    contenders: tuple[int, ...]
    roll_winner: int | None
    first: int | None
    building_start: float | None
    building_over: bool
    clock_start: float | None
    clock_now: float | None
    time_up: bool
    winners: tuple[int, ...]
    loot_log: tuple[LootEntry, ...]

    # -- reading -------------------------------------------------------------------------

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    @property
    def active(self) -> tuple[int, ...]:
        """Seats whose turn it is (and who are still playing)."""
        if self.stage != "play":
            return ()
        return tuple(s for s in self.units[self.unit] if not self.seats[s].out)

    @property
    def side_count(self) -> int:
        return max(self.sides) + 1

    def living_sides(self) -> tuple[int, ...]:
        """Sides with at least one player still in the game."""
        return tuple(sorted({self.sides[i] for i, s in enumerate(self.seats) if not s.out}))

    def side_names(self, side: int) -> str:
        """The players of ``side`` in words: ``Ana`` or ``Ana and Cy``."""
        return " and ".join(p for i, p in enumerate(self.players) if self.sides[i] == side)

    def side_wins(self, side: int) -> str:
        """``Ana wins`` or ``Ana and Cy win``: the side's players with the verb agreeing."""
        names = [p for i, p in enumerate(self.players) if self.sides[i] == side]
        return f"{' and '.join(names)} {'wins' if len(names) == 1 else 'win'}"

    def opponents(self, seat: int) -> tuple[int, ...]:
        """Seats on other sides, still playing."""
        return tuple(i for i, s in enumerate(self.seats) if self.sides[i] != self.sides[seat] and not s.out)

    def merc(self, merc_id: str) -> Merc:
        for m in self.mercs:
            if m.id == merc_id:
                return m
        raise KeyError(merc_id)

    def mercs_of(self, seat: int) -> tuple[Merc, ...]:
        return tuple(m for m in self.mercs if m.owner == seat)

    def at(self, tile: Tile) -> Merc | None:
        """The mercenary on ``tile``, if any."""
        for m in self.mercs:
            if m.tile == tile:
                return m
        return None

    def name(self, seat: int) -> str:
        return self.players[seat]

    def label(self, merc: Merc) -> str:
        """``Ana's Deckhand (m3)``."""
        return f"{self.players[merc.owner]}'s {merc.name} ({merc.id})"

    # -- rebuilding ------------------------------------------------------------------------

    def with_seat(self, seat: int, **changes: Any) -> GuildedState:
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return replace(self, seats=tuple(seats))

    def with_merc(self, merc: Merc) -> GuildedState:
        return replace(self, mercs=tuple(merc if m.id == merc.id else m for m in self.mercs))

    def without_merc(self, merc_id: str) -> GuildedState:
        return replace(self, mercs=tuple(m for m in self.mercs if m.id != merc_id))

    def roll(self, low: int, high: int) -> tuple[int, GuildedState]:
        """A number from ``low`` to ``high`` from the match's seeded generator, and the state after."""
        value = random.Random(f"guilded:{self.seed}:{self.rng}").randint(low, high)
        return value, replace(self, rng=self.rng + 1)


def find_merc(state: GuildedState, ref: Any, what: str = "mercenary") -> Merc:
    """The mercenary in play that ``ref`` names: its id (``m3``) or its name if only one has it.

    Raises:
        IllegalAction: nothing in play by that id or name, or the name is shared.
    """
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalAction(f'name the {what} by its id (like "m1") or its name')
    key = ref.strip().casefold()
    for m in state.mercs:
        if m.id.casefold() == key:
            return m
    named = [m for m in state.mercs if m.name.casefold() == key]
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(f"{state.players[m.owner]}'s {m.id}" for m in named)
        raise IllegalAction(f"more than one mercenary is called {shown(ref)} ({ids}): name one by its id")
    in_play = ", ".join(f"{m.id} {m.name}" for m in state.mercs) or "none"
    raise IllegalAction(f"no mercenary {shown(ref)} is in play (in play: {in_play})")
