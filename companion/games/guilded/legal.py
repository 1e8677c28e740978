"""Every action the table may take now, as plain dicts a screen can offer.

Every listed action is accepted by ``apply`` exactly as it stands. Finite choices are
enumerated (who, which mercenary, which target, how many spaces, how many cards to
acquire, which status, which tile, a coin's result). Open-ended fields (a damage amount, a
card's name, a mercenary's printed stats) carry an example value; :data:`OPEN_FIELDS` names
them per action type so a screen can let the table change them, and ACTIONS_HELP
documents each. The ``clock`` tick is not a table's choice and is not listed.
"""

from __future__ import annotations

from typing import Any

from companion.games.guilded import board, phases, statuses
from companion.games.guilded.combat import blinded, why_cannot_attack, why_out_of_reach
from companion.games.guilded.damage import DAMAGE_TYPES
from companion.games.guilded.movement import why_cannot_move
from companion.games.guilded.state import COLS, ROWS, GuildedState, Tile

Action = dict[str, Any]

#: An example mercenary (a screen asks for the card's printed stats instead).
MERC_EXAMPLE: Action = {
    "name": "Mercenary",
    "health": 5,
    "bounty": 1,
    "armour": 0,
    "magic_armour": 0,
    "defence": 0,
    "melee": 1,
    "ranged": 0,
    "move": 1,
}

#: Per action type, the fields whose listed value is only an example: any value the rules
#: accept may be entered instead.
OPEN_FIELDS: dict[str, tuple[str, ...]] = {
    "deck": ("cards", "champion", "guild_master"),
    "champion": (*tuple(MERC_EXAMPLE), "ranged_type", "stars", "tile"),
    "play_merc": (*tuple(MERC_EXAMPLE), "ranged_type", "stars", "tile", "treasure"),
    "play_treasure": ("name",),
    "equip": ("treasure",),
    "move": ("to",),
    "attack": ("amount", "damage_type", "card"),
    "ability": ("card", "cost"),
    "damage": ("amount", "source", "cause"),
    "heal": ("amount",),
    "add_status": ("count",),
    "set_merc": ("health", "base_health", "bounty", "armour", "magic_armour", "defence", "melee", "ranged", "move"),
    "loot": ("amount", "reason"),
    "draw": ("cards",),
    "discard": ("cards",),
    "counts": ("hand", "deck", "warchest"),
}


def legal_actions(state: GuildedState) -> list[Action]:
    """What may be done now; empty when the match is over."""
    if state.stage == "over":
        return []
    if state.stage == "play":
        actions = _turn_actions(state) + _anyone_actions(state)
    else:
        actions = _setup_actions(state)
    living = [p for i, p in enumerate(state.players) if not state.seats[i].out]
    actions += [{"type": "concede", "player": p} for p in living]
    return actions


def _all_tiles(state: GuildedState) -> list[Tile]:
    return [(s, r, c) for s in range(len(state.players)) for r in range(1, ROWS + 1) for c in range(1, COLS + 1)]


def _example_deck(state: GuildedState, player: str) -> Action:
    action: Action = {
        "type": "deck",
        "player": player,
        "cards": [{"name": "Card", "stars": 1, "count": state.settings.deck_size}],
    }
    extra = state.settings.extra_card
    if extra:
        action[extra] = {"name": "Champion" if extra == "champion" else "Guild Master", "stars": 3}
    return action


def _setup_actions(state: GuildedState) -> list[Action]:
    actions: list[Action] = []
    playing = [i for i, s in enumerate(state.seats) if not s.out]
    if state.stage == "building":
        actions.append({"type": "decks_ready"})
    elif state.stage == "roll":
        for seat in state.contenders:
            if state.seats[seat].roll is None and not state.seats[seat].out:
                p = state.players[seat]
                actions.append({"type": "roll", "player": p})
                actions += [{"type": "roll", "player": p, "value": v} for v in range(1, 7)]
    elif state.stage == "first" and state.roll_winner is not None:
        chooser = state.players[state.roll_winner]
        actions += [{"type": "go_first", "player": chooser, "first": state.players[s]} for s in playing]
    elif state.stage == "pillars":
        from companion.games.guilded.setup import pillar_side

        side = pillar_side(state)
        for seat in playing:
            if state.sides[seat] == side:
                actions += [
                    {"type": "pillar", "player": state.players[seat], "tile": board.tile_json(state, t)}
                    for t in _all_tiles(state)
                    if t not in state.pillars
                ]
    elif state.stage == "champions":
        for seat in playing:
            if not any(m.role == "champion" for m in state.mercs_of(seat)):
                actions.append({"type": "champion", "player": state.players[seat], **MERC_EXAMPLE, "name": "Champion"})
    elif state.stage == "hands":
        for seat in playing:
            player = state.seats[seat]
            if player.kept:
                continue
            if player.mulligans < state.settings.mulligans:
                actions.append({"type": "mulligan", "player": state.players[seat]})
            if state.settings.deck_check != "required" or player.deck_list:
                actions.append({"type": "keep", "player": state.players[seat]})
    actions += [_example_deck(state, state.players[s]) for s in playing]
    return actions


def _coins(state: GuildedState, merc: Any) -> list[Action]:
    """The coin results to list for an action by ``merc``: none unless it is blinded and the table flips."""
    if blinded(state, merc) and state.settings.coin_flips == "table":
        return [{"coin": "won"}, {"coin": "lost"}]
    return [{}]


def _turn_actions(state: GuildedState) -> list[Action]:
    actions: list[Action] = []
    phase = state.phase_name
    settings = state.settings
    hands_over = phase == "end" and any(state.seats[s].hand > settings.hand_limit for s in state.active)
    for seat in state.active:
        p = state.players[seat]
        player = state.seats[seat]
        mine = state.mercs_of(seat)
        enemies = [m for m in state.mercs if state.sides[m.owner] != state.sides[seat]]
        if phase == "end" and player.hand > settings.hand_limit:
            actions.append({"type": "discard", "player": p, "cards": player.hand - settings.hand_limit})
        if phase == "acquire" and not player.acquired:
            most = settings.acquire_limit
            if settings.deck_out == "draw_from_empty":
                most = min(most, player.deck)
            if settings.acquire_last_loot == "refuse":
                most = min(most, player.vault - 1)
            actions += [{"type": "acquire", "player": p, "cards": n} for n in range(0, max(0, most) + 1)]
        if phase == "rally":
            actions += _rally_actions(state, seat)
        if phase in phases.MOVEMENT_PHASES:
            for m in mine:
                if why_cannot_move(state, m):
                    continue
                left = phases.movement_left(state, m)
                actions += [{"type": "move", "player": p, "merc": m.id, "spaces": n} for n in range(1, left + 1)]
                for e in enemies:
                    if e.status("stealth") and board.adjacent(state, m.tile, e.tile) is not False:
                        actions.append({"type": "reveal", "player": p, "merc": m.id, "target": e.id})
        if phase == "attack":
            actions += _attack_actions(state, seat, enemies)
        if phase in ("rally", *phases.MOVEMENT_PHASES) and player.hand >= 1:
            actions.append({"type": "ability", "player": p, "kind": "event", "card": "Event"})
        if hands_over:
            continue
        actions.append({"type": "next_phase", "player": p})
        if phase != "end":
            actions.append({"type": "end_turn", "player": p})
    return actions


def _rally_actions(state: GuildedState, seat: int) -> list[Action]:
    settings = state.settings
    p = state.players[seat]
    player = state.seats[seat]
    mine = state.mercs_of(seat)
    actions: list[Action] = []
    room = len(mine) < settings.max_mercenaries
    if player.hand >= 1 and room:
        actions.append({"type": "play_merc", "player": p, **MERC_EXAMPLE})
    if settings.extra_card == "guild_master" and not player.guild_master_played and room:
        actions.append(
            {"type": "play_merc", "player": p, **MERC_EXAMPLE, "name": "Guild Master", "stars": 3, "guild_master": True}
        )
    if not player.treasure_played and player.hand >= 1:
        actions.append({"type": "play_treasure", "player": p, "name": "Treasure"})
        actions.append({"type": "play_treasure", "player": p, "face_down": True})
    for m in mine:
        in_hall = m.tile is None or board.in_own_guild_hall(seat, m.tile)
        if in_hall and not m.equipped and not player.unequipped and player.warchest > 0:
            actions.append({"type": "equip", "player": p, "merc": m.id, "treasure": {"name": "Treasure"}})
        actions += [{"type": "unequip", "player": p, "merc": m.id, "treasure": t.name} for t in m.treasures]
        if in_hall and settings.exit and m.role != "guild_master":
            actions.append({"type": "exit", "player": p, "merc": m.id})
    return actions


def _attack_actions(state: GuildedState, seat: int, enemies: list[Any]) -> list[Action]:
    p = state.players[seat]
    player = state.seats[seat]
    actions: list[Action] = []
    for m in state.mercs_of(seat):
        if why_cannot_attack(state, m):
            continue
        coins = _coins(state, m)
        for e in enemies:
            if e.status("stealth"):
                continue
            for with_, stat in (("melee", m.melee), ("ranged", m.ranged)):
                if stat > 0 and not why_out_of_reach(state, m, e, with_):
                    actions += [
                        {"type": "attack", "player": p, "merc": m.id, "target": e.id, "with": with_, **c} for c in coins
                    ]
        if state.settings.plunder and not player.plundered:
            if m.tile is not None:
                if board.in_enemy_guild_hall(state, seat, m.tile):
                    actions += [{"type": "plunder", "player": p, "merc": m.id, **c} for c in coins]
            else:
                for o in state.opponents(seat):
                    actions += [
                        {"type": "plunder", "player": p, "merc": m.id, "opponent": state.players[o], **c} for c in coins
                    ]
        if not m.status("silence") and player.hand >= 1:
            actions += [
                {"type": "ability", "player": p, "kind": "attack", "merc": m.id, "card": "Attack ability", **c}
                for c in coins
            ]
    return actions


def _anyone_actions(state: GuildedState) -> list[Action]:
    actions: list[Action] = []
    phase = state.phase_name
    for seat, player in enumerate(state.seats):
        if player.out:
            continue
        p = state.players[seat]
        if phase != "acquire":
            if player.hand >= 1:
                actions.append({"type": "ability", "player": p, "kind": "instant", "card": "Instant"})
            for m in state.mercs_of(seat):
                if not m.exhausted:
                    actions.append({"type": "ability", "player": p, "kind": "active", "merc": m.id})
        actions.append({"type": "loot", "player": p, "amount": -1, "reason": "a card effect"})
        actions.append({"type": "draw", "player": p, "cards": 1})
        if player.hand >= 1:
            actions.append({"type": "discard", "player": p, "cards": 1})
        actions.append(
            {"type": "counts", "player": p, "hand": player.hand, "deck": player.deck, "warchest": player.warchest}
        )
    for m in state.mercs:
        target = m.id
        hidden: Action = {"untargeted": True} if m.status("stealth") else {}
        actions += [{"type": "damage", "target": target, "amount": 1, "damage_type": t, **hidden} for t in DAMAGE_TYPES]
        actions.append({"type": "heal", "target": target, "amount": 1})
        for name, status in statuses.STATUSES.items():
            if statuses.at_most(status, m.stored(name)):
                if m.stored(name):
                    actions.append({"type": "remove_status", "target": target, "status": name})
                continue
            entry: Action = {"type": "add_status", "target": target, "status": name}
            if status.shape != "flag":
                entry["count"] = 1
            if status.group != "beneficial":
                entry.update(hidden)
            actions.append(entry)
            if m.stored(name):
                actions.append({"type": "remove_status", "target": target, "status": name})
        for group, verb in (("physical", "mend"), ("magical", "cleanse")):
            if any(m.stored(n) for n, s in statuses.STATUSES.items() if s.group == group):
                actions.append({"type": verb, "target": target})
        if not m.defence_ready:
            actions.append({"type": "restore_defence", "target": target})
        actions.append({"type": "destroy", "target": target})
        actions.append({"type": "set_merc", "target": target, "health": m.health})
    actions += [
        {"type": "fog", "tile": board.tile_json(state, t)}
        for t in _all_tiles(state)
        if t not in state.fog and t not in state.pillars
    ]
    return actions
