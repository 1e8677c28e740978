"""House-rule settings for Seize: Guilded Treasures, and their values for one match.

Every place the rulebook is silent or ambiguous is one :class:`Rule` here, with the
default Purser uses; docs/rules/guilded.md explains each one. :class:`Settings` is the
resolved set for one match: the format's own figures with any overrides applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import ConfigError, Rule, shown
from companion.games.guilded.formats import FORMATS

RULES: tuple[Rule, ...] = (
    Rule(
        "format",
        "standard",
        "the format: Standard 1v1/2v2, Draft, Arena 1v1/2v2 or Guild Master",
        choices=tuple(FORMATS),
    ),
    Rule(
        "vault",
        0,
        "starting loot in each Vault; 0 = the format's (Standard 30, Draft 20, Arena 30, Guild Master 40)",
        minimum=0,
        maximum=999,
    ),
    Rule(
        "deck_size",
        0,
        "cards in a deck; 0 = the format's (Standard 40, Draft 30, Arena 30 + Champion, "
        "Guild Master 60 + Guild Master)",
        minimum=0,
        maximum=999,
    ),
    Rule("deck_size_exact", True, "a deck must have exactly the deck size (no: at least)"),
    Rule(
        "deck_check",
        "optional",
        "whether each player must enter a legal deck list before keeping a hand",
        choices=("optional", "required"),
    ),
    Rule("casual", False, "casual play: no match timer"),
    Rule(
        "timer_minutes",
        0,
        "match time in minutes; 0 = the format's (Standard 50, Draft 40, Arena 40, Guild Master none)",
        minimum=0,
        maximum=600,
    ),
    Rule("building_minutes", 0, "Draft deck-building time in minutes; 0 = the rulebook's 15", minimum=0, maximum=120),
    Rule(
        "time_up",
        "most_loot",
        "when match time runs out: the turn in play is finished and the side "
        "with the most loot wins (a tie is a draw), or Purser only announces it",
        choices=("most_loot", "announce"),
    ),
    Rule("best_of", 0, "games in a match (odd); 0 = the format's (Arena 3, others 1)", minimum=0, maximum=9),
    Rule(
        "team_turns",
        "format",
        "2v2: teammates share one turn, take separate turns, or as the format says (Arena shared, Standard separate)",
        choices=("format", "shared", "separate"),
    ),
    Rule("mulligans", 1, "mulligans each player may take before keeping a hand", minimum=0, maximum=10),
    Rule("first_turn_draw", True, "the first player draws in the Draw phase of the game's first turn"),
    Rule("hand_limit", 9, "cards a player may keep at the end of their turn", minimum=1, maximum=99),
    Rule("max_mercenaries", 3, "mercenaries a player may have in play", minimum=1, maximum=12),
    Rule("acquire_limit", 4, "extra cards a player may draw in the Acquire phase (1 loot each)", minimum=0, maximum=20),
    Rule(
        "stack_overflow",
        "drop",
        "Bleed past 5 and Poison past 3 grow only in whole fives/threes: "
        "drop the counters that do not make a whole step, or bank them until they do",
        choices=("drop", "bank"),
    ),
    Rule(
        "bleed_timing",
        "every_end",
        "bleeding mercenaries take damage in every End phase, or only in their controller's",
        choices=("every_end", "controller_end"),
    ),
    Rule(
        "bleed_damage",
        "true",
        "the damage type of Bleed (true: no armour or defence applies)",
        choices=("true", "pure", "physical"),
    ),
    Rule(
        "poison_timing",
        "after_reduction",
        "Poison adds its counters to damage that gets through armour and defence, or to the damage before they apply",
        choices=("after_reduction", "before_reduction"),
    ),
    Rule(
        "true_damage_defence",
        False,
        "defence reduces true damage (no: true damage ignores armour and defence, unlike pure)",
    ),
    Rule(
        "lethal_above_half",
        "no_effect",
        "lethal damage against a mercenary above half health: no effect, or dealt as true or physical damage",
        choices=("no_effect", "true", "physical"),
    ),
    Rule(
        "frost_scope",
        "turn",
        "Frost set at the start of First Movement limits movement for the whole "
        "turn (3 counters: no attack either), or only while its counters are on",
        choices=("turn", "counters"),
    ),
    Rule(
        "fortify_loss",
        "cap",
        "when Fortify is lowered or removed, health above the new maximum is lost "
        "(cap) or the bonus is taken off current health (remove_bonus)",
        choices=("cap", "remove_bonus"),
    ),
    Rule(
        "plunder_loot",
        "to_plunderer",
        "loot taken by plundering goes to the plunderer's Vault, or is just lost",
        choices=("to_plunderer", "lost"),
    ),
    Rule("plunder_exhausts", True, "a mercenary that plunders is exhausted, like one that attacks"),
    Rule(
        "deck_out",
        "draw_from_empty",
        "a player loses when they must draw from an empty deck, or as soon as their deck is empty",
        choices=("draw_from_empty", "empty_deck"),
    ),
    Rule(
        "arena_defeat",
        "all_mercenaries",
        "Arena: a side is eliminated when it has no mercenary left in play, or when its Champion is destroyed",
        choices=("all_mercenaries", "champion"),
    ),
    Rule(
        "attack_range",
        "checked",
        "1v1 with positions known: Purser checks reach (melee: an adjacent tile; "
        "ranged: 2-4 tiles away in a row, column or diagonal) and line of sight (no mercenary between), or "
        "the table judges them from the cards (table)",
        choices=("checked", "table"),
    ),
    Rule(
        "acquire_last_loot",
        "refuse",
        "an Acquire that would empty the player's own Vault (and lose the game) is refused, or allowed",
        choices=("refuse", "allow"),
    ),
    Rule(
        "coin_flips",
        "purser",
        "Blind and Fog coin flips: Purser flips unless a coin result is given, or "
        "the table must always give the result of a real coin",
        choices=("purser", "table"),
    ),
)


@dataclass(frozen=True)
class Settings:
    """Every figure and house rule for one match, resolved (times in seconds; None = no limit)."""

    format: str
    format_title: str
    vault: int
    deck_size: int
    deck_size_exact: bool
    deck_check: str
    extra_card: str
    timer_s: int | None
    building_s: int | None
    draft_building: bool
    time_up: str
    best_of: int
    shared_turns: bool
    mulligans: int
    first_turn_draw: bool
    hand_limit: int
    max_mercenaries: int
    acquire_limit: int
    stack_overflow: str
    bleed_timing: str
    bleed_damage: str
    poison_timing: str
    true_damage_defence: bool
    lethal_above_half: str
    frost_scope: str
    fortify_loss: str
    plunder_loot: str
    plunder_exhausts: bool
    deck_out: str
    arena_defeat: str
    coin_flips: str
    attack_range: str
    acquire_last_loot: str
    plunder: bool
    bounty: bool
    exit: bool
    enter_guild_hall: bool
    single_class: bool
    goal: str

    @property
    def wins_needed(self) -> int:
        """Game wins that take the match."""
        return self.best_of // 2 + 1


def resolve_settings(config: Mapping[str, Any], n_players: int) -> Settings:
    """The settings for a match of ``n_players`` under ``config`` (resolved house rules).

    Raises:
        ConfigError: an unknown format, a seating the format does not allow, an even best-of.
    """
    values = {r.key: r.default for r in RULES}
    values.update(config)
    key = str(values["format"])
    fmt = FORMATS.get(key)
    if fmt is None:
        raise ConfigError(f"there is no format called {shown(key)} (formats: {', '.join(FORMATS)})")
    if n_players not in fmt.seatings:
        raise ConfigError(f"{fmt.title} is played by {fmt.seating_words()}, not {n_players}")
    best_of = int(values["best_of"]) or fmt.best_of
    if best_of % 2 == 0:
        raise ConfigError(f"a match is best of an odd number of games (1, 3, 5 ...), not {best_of}")
    casual = bool(values["casual"])
    minutes = int(values["timer_minutes"]) or fmt.minutes
    building = int(values["building_minutes"]) or fmt.building_minutes or 15
    team_turns = str(values["team_turns"])
    shared = fmt.shared_team_turns if team_turns == "format" else team_turns == "shared"
    return Settings(
        format=fmt.key,
        format_title=fmt.title,
        vault=int(values["vault"]) or fmt.loot,
        deck_size=int(values["deck_size"]) or fmt.deck_size,
        deck_size_exact=bool(values["deck_size_exact"]),
        deck_check=str(values["deck_check"]),
        extra_card=fmt.extra_card,
        timer_s=None if casual or minutes == 0 else minutes * 60,
        building_s=None if casual else building * 60,
        draft_building=fmt.building_minutes > 0,
        time_up=str(values["time_up"]),
        best_of=best_of,
        shared_turns=shared,
        mulligans=int(values["mulligans"]),
        first_turn_draw=bool(values["first_turn_draw"]),
        hand_limit=int(values["hand_limit"]),
        max_mercenaries=int(values["max_mercenaries"]),
        acquire_limit=int(values["acquire_limit"]),
        stack_overflow=str(values["stack_overflow"]),
        bleed_timing=str(values["bleed_timing"]),
        bleed_damage=str(values["bleed_damage"]),
        poison_timing=str(values["poison_timing"]),
        true_damage_defence=bool(values["true_damage_defence"]),
        lethal_above_half=str(values["lethal_above_half"]),
        frost_scope=str(values["frost_scope"]),
        fortify_loss=str(values["fortify_loss"]),
        plunder_loot=str(values["plunder_loot"]),
        plunder_exhausts=bool(values["plunder_exhausts"]),
        deck_out=str(values["deck_out"]),
        arena_defeat=str(values["arena_defeat"]),
        coin_flips=str(values["coin_flips"]),
        attack_range=str(values["attack_range"]),
        acquire_last_loot=str(values["acquire_last_loot"]),
        plunder=fmt.plunder,
        bounty=fmt.bounty,
        exit=fmt.exit,
        enter_guild_hall=fmt.enter_guild_hall,
        single_class=fmt.single_class,
        goal=fmt.goal,
    )
