"""The summary a screen renders: Vaults as scores, whose move it is, and a rich ``detail``.

``detail`` keys (all JSON-ready):

- ``format``: key, title, goal, best_of, game (number), wins (per side, as names), results.
- ``stage``: building | roll | first | pillars | champions | hands | play | over.
- ``turn``, ``phase``, ``phase_title``, ``phases`` (all, in order), ``allows`` (what the
  phase allows, in words), ``turn_players``.
- ``players``: per name: vault, deck, hand, warchest, side, out (reason or ""), acquired,
  treasure_played, plundered, mulligans, kept, roll, deck_size, deck_list.
- ``mercenaries``: each in play: id, name, owner, health, max_health, base_health, bounty,
  armour / magic_armour (with treasures), defence, defence_ready, melee, ranged,
  ranged_type, move, movement_left, stars, role, tile, statuses (count acting),
  banked (stored counts where ``stack_overflow=bank`` holds more), treasures, exhausted,
  blinded, frozen, attacked, can_move, can_attack, lethal_range (at half health or
  less), burn_due (Burn will act in its controller's next Attack phase).
- ``pillars``, ``fog``: tiles ``{"side", "row", "col"}``.
- ``battlefield``: how the grid is drawn: rows, cols, guild_hall_row, rally_rows, and
  ``facing`` (two sides facing each other, the second player's turned round: Purser knows
  the whole layout) or not (each side's grid on its own, as the mat lays them out).
- ``tile_choices``: the tiles the table may pick now, per kind of action: a list of
  ``{"type", "field", "tiles", ...}`` (``player``, and ``merc`` for a move). A listed action
  of that type (and player and mercenary) with ``field`` set to one of ``tiles`` is accepted
  as it stands (with its form's values); any other tile is refused. Covers ``pillar`` and
  ``fog`` (listed tile by tile too), ``champion`` and ``play_merc`` (``tile``: where it
  enters; upstaging an enemy where the space behind is free) and ``move`` (``to``: a
  tile whose distance Purser knows, within the movement left).
- ``clock``: limit_s, elapsed_s, remaining_s, started_at, last_at, casual, time_up,
  building (Draft: limit_s, elapsed_s, over).
- ``reminders``: things the table must not forget now (hand limit, time).
- ``loot_log``: the last 20 Vault changes with reasons.
- ``status_rules``: each status's group, shape and rule text.
- ``open_fields``: per action type, the fields whose value in ``legal_actions`` is only an
  example the table may change (a damage amount, a card's name, printed stats).
- ``forms``: per action type, how a screen asks for those values: a list of fields, each
  ``{"field", "kind", ...}`` with ``kind`` "number" (whole, ``low`` to ``high``), "text" or
  "choice" (``choices``). A dotted field (``treasure.armour``) sits inside the named object.
  ``extra`` fields are not in the listed action; left out, the engine uses ``default``.
  Types without a form (attack, move, tiles, deck lists) are sent as listed.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import IllegalAction, Summary
from companion.games.guilded import board, clock, phases, statuses
from companion.games.guilded.combat import blinded, why_cannot_attack
from companion.games.guilded.legal import OPEN_FIELDS
from companion.games.guilded.mercs import STAT_FIELDS
from companion.games.guilded.movement import why_cannot_move
from companion.games.guilded.setup import PILLARS, pillar_side
from companion.games.guilded.state import COLS, PHASES, ROWS, GuildedState, Merc, Tile

LOG_TAIL = 20


def _number(field: str, low: int, high: int, **more: Any) -> dict[str, Any]:
    return {"field": field, "kind": "number", "low": low, "high": high, **more}


def _text(field: str, **more: Any) -> dict[str, Any]:
    return {"field": field, "kind": "text", **more}


_STATS = (
    _text("name"),
    _number("health", 1, 999),
    *(_number(key, 0, 999) for key in STAT_FIELDS),
    # the card shows a crossbow (physical) or a staff (magic)
    {"field": "ranged_type", "kind": "choice", "choices": ["crossbow", "staff"], "extra": True, "default": "crossbow"},
    _number("stars", 0, 4, extra=True, default=0),
)

#: How a screen asks for each open field (see the module's ``forms``); the bounds are the
#: ones the action handlers enforce.
FORMS: dict[str, tuple[dict[str, Any], ...]] = {
    "champion": _STATS,
    "play_merc": _STATS,
    "play_treasure": (_text("name"),),
    "equip": (
        _text("treasure.name"),
        _number("treasure.armour", 0, 99, extra=True, default=0),
        _number("treasure.magic_armour", 0, 99, extra=True, default=0),
    ),
    "ability": (_text("card"), _number("cost", 0, 99, extra=True, default=0)),
    "damage": (_number("amount", 0, 999),),
    "heal": (_number("amount", 0, 999),),
    "add_status": (_number("count", 1, 99),),
    "set_merc": (_number("health", 0, 999),),
    "loot": (_number("amount", -999, 999), _text("reason")),
    "draw": (_number("cards", 1, 99),),
    "discard": (_number("cards", 1, 99),),
    "counts": (_number("hand", 0, 999), _number("deck", 0, 999), _number("warchest", 0, 999)),
}


def merc_json(state: GuildedState, m: Merc) -> dict[str, Any]:
    """One mercenary for screens."""
    active = state.stage == "play" and m.owner in state.active
    return {
        "id": m.id,
        "name": m.name,
        "owner": state.players[m.owner],
        "health": m.health,
        "max_health": m.max_health,
        "base_health": m.base_health,
        "bounty": m.bounty,
        "armour": m.total_armour,
        "magic_armour": m.total_magic_armour,
        "defence": m.defence,
        "defence_ready": m.defence_ready,
        "melee": m.melee,
        "ranged": m.ranged,
        "ranged_type": m.ranged_type,
        "move": m.move,
        "movement_left": phases.movement_left(state, m) if active else m.move,
        "stars": m.stars,
        "role": m.role,
        "tile": board.tile_json(state, m.tile),
        "statuses": {name: m.status(name) for name, _ in m.statuses if m.status(name)},
        "banked": {name: v for name, v in m.statuses if v != m.status(name)},
        "treasures": [{"name": t.name, "armour": t.armour, "magic_armour": t.magic_armour} for t in m.treasures],
        "exhausted": m.exhausted,
        "blinded": blinded(state, m),
        "frozen": phases.frozen(state, m),
        "attacked": m.attacked,
        "can_move": active and state.phase_name in phases.MOVEMENT_PHASES and not why_cannot_move(state, m),
        "can_attack": active and state.phase_name == "attack" and not why_cannot_attack(state, m),
        "lethal_range": m.health * 2 <= m.max_health,
        "burn_due": bool(m.status("burn")) and m.burn_turn is not None,
    }


def _clock(state: GuildedState) -> dict[str, Any]:
    s = state.settings
    used = clock.elapsed(state)
    info: dict[str, Any] = {
        "limit_s": s.timer_s,
        "elapsed_s": used,
        "remaining_s": None if s.timer_s is None else max(0.0, s.timer_s - used),
        "started_at": state.clock_start,
        "last_at": state.clock_now,
        "casual": s.timer_s is None,
        "time_up": state.time_up,
    }
    if s.draft_building:
        info["building"] = {
            "limit_s": s.building_s,
            "elapsed_s": clock.building_elapsed(state),
            "over": state.building_over or state.stage != "building",
        }
    return info


def _all_tiles(state: GuildedState) -> list[Tile]:
    return [(s, r, c) for s in range(len(state.players)) for r in range(1, ROWS + 1) for c in range(1, COLS + 1)]


def _entry_tiles(state: GuildedState, seat: int) -> list[Tile]:
    """Where a new mercenary of ``seat`` may enter: its rally rows, no pillar, no ally, an enemy only if upstaged."""
    tiles = []
    for row in board.RALLY_ROWS:
        for col in range(1, COLS + 1):
            tile = (seat, row, col)
            if tile in state.pillars:
                continue
            other = state.at(tile)
            if other is not None:
                if state.sides[other.owner] == state.sides[seat]:
                    continue
                try:
                    board.upstage_tile(state, seat, tile)
                except IllegalAction:
                    continue
            tiles.append(tile)
    return tiles


def _move_tiles(state: GuildedState, seat: int, m: Merc) -> list[Tile]:
    """Where ``m`` may be moved ``to`` now: free tiles at a known distance within its movement left."""
    if m.tile is None or why_cannot_move(state, m):
        return []
    left = phases.movement_left(state, m)
    tiles = []
    for tile in _all_tiles(state):
        if board.blocked(state, tile):
            continue
        if not state.settings.enter_guild_hall and board.in_enemy_guild_hall(state, seat, tile):
            continue
        far = board.distance(state, m.tile, tile)
        if far is not None and 0 < far <= left:
            tiles.append(tile)
    return tiles


def tile_choices(state: GuildedState) -> list[dict[str, Any]]:
    """The tiles the table may pick now, per kind of action (see ``tile_choices`` above)."""

    def entry(kind: str, field: str, tiles: list[Tile], **who: Any) -> dict[str, Any]:
        return {"type": kind, **who, "field": field, "tiles": [board.tile_json(state, t) for t in tiles]}

    playing = [i for i, s in enumerate(state.seats) if not s.out]
    names = state.players
    choices: list[dict[str, Any]] = []
    if state.stage == "pillars":
        free = [t for t in _all_tiles(state) if t not in state.pillars]
        side = pillar_side(state)
        choices += [entry("pillar", "tile", free, player=names[i]) for i in playing if state.sides[i] == side]
    elif state.stage == "champions":
        choices += [
            entry("champion", "tile", _entry_tiles(state, i), player=names[i])
            for i in playing
            if not any(m.role == "champion" for m in state.mercs_of(i))
        ]
    elif state.stage == "play":
        for seat in state.active:
            if state.phase_name == "rally":
                choices.append(entry("play_merc", "tile", _entry_tiles(state, seat), player=names[seat]))
            if state.phase_name in phases.MOVEMENT_PHASES:
                for m in state.mercs_of(seat):
                    tiles = _move_tiles(state, seat, m)
                    if tiles:
                        choices.append(entry("move", "to", tiles, player=names[seat], merc=m.id))
        choices.append(
            entry("fog", "tile", [t for t in _all_tiles(state) if t not in state.fog and t not in state.pillars])
        )
    return [c for c in choices if c["tiles"]]


def _reminders(state: GuildedState) -> list[str]:
    notes = []
    if state.stage == "play":
        for seat in state.active:
            extra = state.seats[seat].hand - state.settings.hand_limit
            if extra > 0:
                when = "now" if state.phase_name == "end" else "by the End phase"
                notes.append(
                    f"{state.players[seat]} holds {state.seats[seat].hand} cards: discard {extra} {when} "
                    f"(hand limit {state.settings.hand_limit})."
                )
    if state.time_up and state.stage == "play" and state.settings.time_up == "most_loot":
        notes.append("Time is up: the game ends after this turn; the most loot wins.")
    return notes


def _prompt(state: GuildedState) -> tuple[tuple[str, ...], str]:
    names = state.players
    playing = [i for i, s in enumerate(state.seats) if not s.out]
    if state.stage == "building":
        minutes = (state.settings.building_s or 0) // 60
        limit = f" ({minutes} minutes)" if minutes else ""
        return tuple(names[i] for i in playing), (
            f"Draft deck building{limit}: build {state.settings.deck_size}-card decks from your packs, "
            'then {"type": "decks_ready"}.'
        )
    if state.stage == "roll":
        todo = tuple(names[s] for s in state.contenders if state.seats[s].roll is None and not state.seats[s].out)
        return todo, f"Roll a d6 each for who goes first: {', '.join(todo)} to roll."
    if state.stage == "first":
        chooser = names[state.roll_winner or 0]
        return (chooser,), f"{chooser} rolled highest: choose who goes first."
    if state.stage == "pillars":
        side = pillar_side(state)
        who = tuple(names[i] for i in playing if state.sides[i] == side)
        return who, f"Arena: {' or '.join(who)} place pillar {len(state.pillars) + 1} of {PILLARS}."
    if state.stage == "champions":
        todo = tuple(names[i] for i in playing if not any(m.role == "champion" for m in state.mercs_of(i)))
        return todo, f"Arena: place your Champions: {', '.join(todo)}."
    if state.stage == "hands":
        todo = tuple(names[i] for i in playing if not state.seats[i].kept)
        return todo, f"Draw 7 cards each, then mulligan or keep: {', '.join(todo)}."
    if state.stage == "over":
        return (), "The match is over."
    who = tuple(names[s] for s in state.active)
    title = phases.TITLES[state.phase_name]
    allowed = "; ".join(phases.allows(state, state.phase_name))
    text = f"Turn {state.turn}, {' and '.join(who)}: {title} phase. {allowed}"
    notes = _reminders(state)
    return who, text + "." + ("" if not notes else " " + " ".join(notes))


def summary(state: GuildedState) -> Summary:
    """Vaults as scores, who must act, the prompt, and the detail documented above."""
    scores = {p: float(state.seats[i].vault) for i, p in enumerate(state.players)}
    to_act, prompt = _prompt(state)
    winners = tuple(state.players[i] for i in state.winners)
    if state.stage == "over":
        prompt = f"{' and '.join(winners)} won the match." if winners else "The match ended in a draw."
    settings = state.settings
    detail: dict[str, Any] = {
        "format": {
            "key": settings.format,
            "title": settings.format_title,
            "goal": settings.goal,
            "best_of": settings.best_of,
            "game": state.game,
            "wins": {state.side_names(side): state.wins[side] for side in range(state.side_count)},
            "results": [
                {"game": i + 1, "winners": state.side_names(w) if w >= 0 else "", "reason": why}
                for i, (w, why) in enumerate(state.results)
            ],
        },
        "stage": state.stage,
        "turn": state.turn,
        "phase": state.phase_name if state.stage == "play" else None,
        "phase_title": phases.TITLES[state.phase_name] if state.stage == "play" else None,
        "phases": list(PHASES),
        "allows": phases.allows(state, state.phase_name) if state.stage == "play" else [],
        "turn_players": [state.players[s] for s in state.active],
        "players": {
            p: {
                "vault": s.vault,
                "deck": s.deck,
                "hand": s.hand,
                "warchest": s.warchest,
                "side": state.sides[i],
                "out": s.out,
                "acquired": s.acquired,
                "treasure_played": s.treasure_played,
                "plundered": s.plundered,
                "mulligans": s.mulligans,
                "kept": s.kept,
                "roll": s.roll,
                "deck_size": s.deck_size,
                "deck_list": s.deck_list,
            }
            for i, (p, s) in enumerate(zip(state.players, state.seats, strict=False))
        },
        "mercenaries": [merc_json(state, m) for m in state.mercs],
        "pillars": [board.tile_json(state, t) for t in state.pillars],
        "fog": [board.tile_json(state, t) for t in state.fog],
        "battlefield": {
            "rows": ROWS,
            "cols": COLS,
            "guild_hall_row": board.GUILD_HALL_ROW,
            "rally_rows": list(board.RALLY_ROWS),
            "facing": len(state.players) == 2,
        },
        "tile_choices": tile_choices(state),
        "clock": _clock(state),
        "reminders": _reminders(state),
        "loot_log": [
            {
                "player": state.players[e.seat],
                "change": e.change,
                "reason": e.reason,
                "vault": e.vault,
                "game": e.game,
                "turn": e.turn,
            }
            for e in state.loot_log[-LOG_TAIL:]
        ],
        "status_rules": {n: {"group": s.group, "shape": s.shape, "text": s.text} for n, s in statuses.STATUSES.items()},
        "open_fields": {kind: list(fields) for kind, fields in OPEN_FIELDS.items()},
        "forms": {kind: [dict(f) for f in fields] for kind, fields in FORMS.items()},
    }
    return Summary(scores, to_act, prompt, state.stage == "over", winners, detail)
