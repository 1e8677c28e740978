"""The engine protocol for Seize: Guilded Treasures: initial_state, apply, legal_actions, summary."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, action_type, check_players, event, shown
from companion.games.guilded import (
    abilities,
    clock,
    combat,
    match,
    movement,
    phases,
    rally,
    setup,
    table_effects,
    turn,
)
from companion.games.guilded.legal import legal_actions
from companion.games.guilded.settings import RULES, resolve_settings
from companion.games.guilded.state import GuildedState
from companion.games.guilded.view import summary

NAME = "guilded"
TITLE = "Seize: Guilded Treasures"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

ACTIONS_HELP = """\
Seize: Guilded Treasures actions. Every action may carry "at": the time in seconds (match timer).
Mercenaries are named by id ("m1") or by name; tiles are {"side": "Ana", "row": 1-3, "col": 1-4}
(row 1 = that side's Guild Hall). Listed legal actions carry example values in open-ended fields
(a damage amount, a card's name, printed stats): enter the real ones.
 Setup:
  {"type": "decks_ready"}                                      Draft: deck building is over
  {"type": "deck", "player": "Ana", "cards": [{"name": "Deckhand", "stars": 1, "count": 3, "class": "Rogue"}],
   "champion": {...} | "guild_master": {...}}                  check a deck list (size, one of each 4-star card)
  {"type": "roll", "player": "Ana", "value": 5}                a d6 for who goes first (no value: Purser rolls;
                                                               "from": "camera" reads the die)
  {"type": "go_first", "player": "Ana", "first": "Ben"}        the highest roller chooses
  {"type": "pillar", "player": "Ana", "tile": {...}}           Arena: 4 pillars, sides in turn
  {"type": "champion", "player": "Ana", "name": "Brute", "health": 9, ...stats}   Arena: Champion into play
  {"type": "mulligan", "player": "Ana"}   {"type": "keep", "player": "Ana"}
 The turn (turn players):
  {"type": "next_phase", "player": "Ana"}                      on to the next phase (after End: next turn)
  {"type": "end_turn", "player": "Ana"}                        through the remaining phases to End
  {"type": "acquire", "player": "Ana", "cards": 2}             Acquire: up to 4 cards, 1 loot each
  {"type": "play_merc", "player": "Ana", "name": "Deckhand", "health": 5, "bounty": 2, "armour": 1,
   "magic_armour": 0, "defence": 2, "melee": 2, "ranged": 1, "ranged_type": "magic", "move": 2,
   "stars": 1, "tile": {...}, "treasure": {"name": "Helm", "armour": 1}, "guild_master": false}
  {"type": "play_treasure", "player": "Ana", "name": "Gold Idol"}   (or "face_down": true for a mercenary)
  {"type": "equip", "player": "Ana", "merc": "m1", "treasure": {"name": "Helm", "armour": 1}}
  {"type": "unequip", "player": "Ana", "merc": "m1", "treasure": "Helm"}
  {"type": "exit", "player": "Ana", "merc": "m1"}
  {"type": "move", "player": "Ana", "merc": "m1", "spaces": 2, "to": {...}}
  {"type": "reveal", "player": "Ana", "merc": "m1", "target": "m4"}   1 movement: end an adjacent stealth
  {"type": "attack", "player": "Ana", "merc": "m1", "target": "m4", "with": "melee"|"ranged",
   "amount": 3, "damage_type": "physical", "card": "Cleave", "coin": "won"|"lost"}  (amount etc. optional)
  {"type": "plunder", "player": "Ana", "merc": "m1", "opponent": "Ben", "coin": "won"}
  {"type": "ability", "player": "Ana", "kind": "instant"|"attack"|"event"|"active", "card": "Fireball",
   "merc": "m1", "cost": 2}
 Effects and corrections (anyone, during play):
  {"type": "damage", "target": "m4", "amount": 3, "damage_type": "physical"|"magic"|"true"|"pure"|"lethal",
   "source": "m1", "untargeted": false, "cause": "Fireball"}
  {"type": "heal", "target": "m4", "amount": 2}
  {"type": "add_status", "target": "m4", "status": "bleed", "count": 2}
   statuses: exhaust bleed blind poison fog frost burn silence stealth regen fortify leech
  {"type": "remove_status", "target": "m4", "status": "bleed", "count": 1}   (no count: all)
  {"type": "mend"|"cleanse", "target": "m4", "status": "poison"}             (no status: all of the group)
  {"type": "fog", "tile": {...}}   {"type": "restore_defence", "target": "m4"}
  {"type": "destroy", "target": "m4", "bounty": true}
  {"type": "set_merc", "target": "m4", "health": 3, "base_health": 6, ...any stat}   (corrections)
  {"type": "loot", "player": "Ana", "amount": -2, "reason": "Tax"}   {"type": "draw", "player": "Ana", "cards": 1}
  {"type": "discard", "player": "Ana", "cards": 2}
  {"type": "counts", "player": "Ana", "hand": 6, "deck": 20, "warchest": 1}   (corrections)
  {"type": "concede", "player": "Ana"}   {"type": "clock", "at": 1718000000}"""

Handler = Callable[[GuildedState, Mapping[str, Any], list[Event]], GuildedState]


def _clock_tick(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    at = clock.read_at(action)
    if at is None:
        raise IllegalAction('a clock action needs "at": the time in seconds')
    if state.clock_now is not None and at <= state.clock_now:
        raise IllegalAction(
            f"the clock already reads {at_words(state, state.clock_now)}, later than or equal to this "
            f"({at_words(state, at)}): time only runs forward, so this changes nothing"
        )
    return state


def at_words(state: GuildedState, at: float) -> str:
    """A time as the match clock shows it: ``12:30 played`` (or the Unix time before it starts)."""
    start = state.clock_start if state.stage != "building" else state.building_start
    if start is None:
        return f"{at:g} s"
    played = max(0.0, at - start)
    return f"{int(played // 60)}:{int(played % 60):02d} played"


def _explain_or_refuse(
    before: GuildedState, after: GuildedState, kind: str, action: Mapping[str, Any], events: list[Event]
) -> None:
    """Every accepted action says in words what it did: one that changed the clock only says
    where the clock stands; one that changed nothing at all is refused.

    Raises:
        IllegalAction: nothing changed and nothing was said.
    """
    if any(e.get("text") for e in events):
        return
    timeless = replace(
        after, clock_now=before.clock_now, clock_start=before.clock_start, building_start=before.building_start
    )
    if timeless == before and kind != "clock":
        raise IllegalAction(f"that {kind.replace('_', ' ')} changes nothing, so it is not recorded")
    if after.clock_now is not None:
        events.append(event("clock", f"Clock: {at_words(after, after.clock_now)}.", at=after.clock_now))


HANDLERS: dict[str, Handler] = {
    "decks_ready": setup.decks_ready,
    "deck": setup.deck,
    "roll": setup.roll,
    "go_first": setup.go_first,
    "pillar": setup.pillar,
    "champion": setup.champion,
    "mulligan": setup.mulligan,
    "keep": setup.keep,
    "next_phase": turn.next_phase,
    "end_turn": turn.end_turn,
    "acquire": turn.acquire,
    "play_merc": rally.play_merc,
    "play_treasure": rally.play_treasure,
    "equip": rally.equip,
    "unequip": rally.unequip,
    "exit": rally.exit_play,
    "move": movement.move,
    "reveal": movement.reveal,
    "attack": combat.attack,
    "plunder": combat.plunder,
    "ability": abilities.ability,
    "damage": table_effects.damage,
    "heal": table_effects.heal,
    "add_status": table_effects.add_status,
    "remove_status": table_effects.remove_status,
    "mend": table_effects.mend,
    "cleanse": table_effects.cleanse,
    "fog": table_effects.fog,
    "restore_defence": table_effects.restore_defence,
    "set_merc": table_effects.set_merc,
    "destroy": table_effects.destroy,
    "loot": table_effects.loot,
    "draw": table_effects.draw,
    "discard": table_effects.discard,
    "counts": table_effects.counts,
    "concede": table_effects.concede,
    "clock": _clock_tick,
}


def initial_state(config: Mapping[str, Any], players: Sequence[str], seed: int) -> GuildedState:
    """A new match: full Vaults, decks of the format's size less a 7-card hand, setup begun.

    Raises:
        ConfigError: a bad seating, a seating the format does not allow, a bad setting.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    settings = resolve_settings(config, len(names))
    sides = match.sides_for(settings, len(names))
    return GuildedState(
        players=names,
        sides=sides,
        settings=settings,
        seed=seed,
        rng=0,
        stage=match.first_stage(settings, 1),
        game=1,
        wins=(0,) * (max(sides) + 1),
        results=(),
        seats=tuple(match.fresh_seat(settings) for _ in names),
        mercs=(),
        next_id=1,
        pillars=(),
        fog=(),
        units=match.units_for(settings, sides),
        unit=0,
        turn=0,
        phase=0,
        contenders=tuple(range(len(names))),
        roll_winner=None,
        first=None,
        building_start=None,
        building_over=False,
        clock_start=None,
        clock_now=None,
        time_up=False,
        winners=(),
        loot_log=(),
    )


def apply(state: GuildedState, action: Mapping[str, Any]) -> tuple[GuildedState, list[Event]]:
    """Apply one action; returns the new state and what happened.

    Raises:
        IllegalAction: the rules refuse it, or it is malformed (the given state is untouched).
    """
    kind = action_type(action)
    handler = HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"{TITLE} has no {shown(kind)} action (see `purser play --help`)")
    if state.stage == "over":
        raise IllegalAction("the match is over")
    at = clock.read_at(action)
    events: list[Event] = []
    new = handler(state, action, events)
    if kind == "concede" and new.stage not in ("play", "over"):
        new = setup.after_concede(new, events)
    new = phases.after_change(new, events)
    new = clock.observe(new, at, events)
    _explain_or_refuse(state, new, kind, action, events)
    return new, events


def public_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """``action`` as the table may see it in the history: a deck list shows only its size
    (which cards a player built with, and a Guild Master kept in the Guild Quarters, stay
    theirs)."""
    public = dict(action)
    if public.get("type") == "deck":
        cards = public.get("cards")
        if isinstance(cards, list):
            counts = [c.get("count", 1) if isinstance(c, Mapping) else 1 for c in cards]
            public["cards"] = sum(n for n in counts if isinstance(n, int) and not isinstance(n, bool))
        for extra in ("champion", "guild_master"):
            if extra in public:
                public[extra] = "(entered)"
    return public


__all__ = [
    "ACTIONS_HELP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "RULES",
    "TITLE",
    "apply",
    "initial_state",
    "legal_actions",
    "public_action",
    "summary",
]
