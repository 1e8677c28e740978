"""What happens to mercenaries and Vaults: damage, healing, statuses, destruction, loot, draws.

Each function takes the state and the event list of the action being applied, returns
the new state and appends what happened in words. Losing (Vault at 0, an empty deck, a
fallen Guild Master) is only marked on the seat here; :mod:`.outcome` settles it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import Event, event
from companion.games.guilded import statuses
from companion.games.guilded.damage import DamageRules, Defender, Hit, describe, resolve_hit
from companion.games.guilded.settings import Settings
from companion.games.guilded.state import GuildedState, LootEntry, Merc


def damage_rules(settings: Settings) -> DamageRules:
    return DamageRules(settings.true_damage_defence, settings.poison_timing, settings.lethal_above_half)


def defender(merc: Merc) -> Defender:
    """The numbers a hit on ``merc`` is measured against."""
    return Defender(
        health=merc.health,
        max_health=merc.max_health,
        armour=merc.total_armour,
        magic_armour=merc.total_magic_armour,
        defence=merc.defence,
        defence_ready=merc.defence_ready,
        poison=merc.status("poison"),
    )


def hurt(
    state: GuildedState,
    merc_id: str,
    amount: int,
    damage_type: str,
    events: list[Event],
    *,
    cause: str,
    source: str | None = None,
) -> tuple[GuildedState, Hit]:
    """Deal ``amount`` damage of ``damage_type`` to a mercenary; Leech on ``source`` heals it.

    Raises:
        IllegalAction: a negative amount or an unknown type (nothing changes).
    """
    target = state.merc(merc_id)
    hit = resolve_hit(defender(target), amount, damage_type, damage_rules(state.settings))
    hurt_merc = replace(
        target,
        health=hit.health_after,
        defence_ready=target.defence_ready and not hit.defence_spent,
    )
    state = state.with_merc(hurt_merc)
    spent = " Its defence is spent." if hit.defence_spent else ""
    events.append(
        event(
            "damage",
            f"{state.label(target)} takes {describe(hit)} from {cause}; "
            f"health {hit.health_after}/{target.max_health}.{spent}",
            merc=merc_id,
            amount=hit.amount,
            damage_type=hit.damage_type,
            armour=hit.armour,
            defence=hit.defence,
            poison=hit.poison,
            dealt=hit.dealt,
            lost=hit.lost,
            health=hit.health_after,
            cause=cause,
        )
    )
    if source is not None and hit.lost > 0 and any(m.id == source for m in state.mercs):
        leecher = state.merc(source)
        if leecher.status("leech"):
            state = heal(state, source, hit.lost, events, "Leech")
    if hit.destroyed:
        state = destroy(state, merc_id, events, cause)
    return state, hit


def heal(state: GuildedState, merc_id: str, amount: int, events: list[Event], reason: str) -> GuildedState:
    """Give a mercenary ``amount`` health, never above its maximum."""
    merc = state.merc(merc_id)
    healed = max(0, min(amount, merc.max_health - merc.health))
    state = state.with_merc(replace(merc, health=merc.health + healed))
    events.append(
        event(
            "heal",
            f"{state.label(merc)} heals {healed} ({reason}); health {merc.health + healed}/{merc.max_health}.",
            merc=merc_id,
            amount=healed,
            health=merc.health + healed,
            reason=reason,
        )
    )
    return state


def destroy(state: GuildedState, merc_id: str, events: list[Event], cause: str, bounty: bool = True) -> GuildedState:
    """Take a mercenary out of play (with its treasures); its bounty leaves its owner's Vault."""
    merc = state.merc(merc_id)
    state = state.without_merc(merc_id)
    events.append(
        event(
            "destroyed",
            f"{state.label(merc)} is destroyed ({cause}).",
            merc=merc_id,
            name=merc.name,
            owner=state.players[merc.owner],
            cause=cause,
        )
    )
    if bounty and state.settings.bounty and merc.bounty > 0:
        state = change_loot(state, merc.owner, -merc.bounty, f"bounty: {merc.name} destroyed", events)
    if merc.role == "guild_master" and not state.seats[merc.owner].out:
        state = state.with_seat(merc.owner, out="Guild Master defeated")
        events.append(
            event(
                "guild_master_defeated",
                f"{state.players[merc.owner]}'s Guild Master has fallen.",
                player=state.players[merc.owner],
            )
        )
    return state


def change_loot(state: GuildedState, seat: int, change: int, reason: str, events: list[Event]) -> GuildedState:
    """Add ``change`` (negative: lose) loot to a Vault, never below 0, and log why."""
    before = state.seats[seat].vault
    after = max(0, before + change)
    real = after - before
    entry = LootEntry(seat, real, reason, after, state.game, state.turn)
    state = replace(state.with_seat(seat, vault=after), loot_log=(*state.loot_log, entry))
    verb = "gains" if real >= 0 else "loses"
    events.append(
        event(
            "loot",
            f"{state.players[seat]} {verb} {abs(real)} loot ({reason}); Vault {after}.",
            player=state.players[seat],
            change=real,
            reason=reason,
            vault=after,
        )
    )
    return state


def draw_cards(state: GuildedState, seat: int, count: int, events: list[Event], why: str) -> GuildedState:
    """Move ``count`` cards from a player's deck to their hand; drawing from an empty deck loses."""
    player = state.seats[seat]
    drawn = min(count, player.deck)
    state = state.with_seat(seat, deck=player.deck - drawn, hand=player.hand + drawn)
    if drawn:
        events.append(
            event(
                "draw",
                f"{state.players[seat]} draws {drawn} card{'s' * (drawn != 1)} ({why}); "
                f"{player.deck - drawn} left in the deck.",
                player=state.players[seat],
                cards=drawn,
                deck=player.deck - drawn,
                why=why,
            )
        )
    if drawn < count and not state.seats[seat].out:
        state = state.with_seat(seat, out="ran out of cards")
        events.append(
            event(
                "deck_out",
                f"{state.players[seat]} must draw but the deck is empty.",
                player=state.players[seat],
            )
        )
    return state


def set_status(
    state: GuildedState, merc_id: str, name: str, stored: int, events: list[Event], *, why: str
) -> GuildedState:
    """Store status ``name`` on a mercenary as ``stored``, with Fortify's health and Burn's timing."""
    merc = state.merc(merc_id)
    before = merc.status(name)
    changed = merc.with_status(name, stored)
    after = changed.status(name)
    if name == "fortify" and after != before:
        delta = statuses.fortify_bonus(after) - statuses.fortify_bonus(before)
        if delta > 0 or state.settings.fortify_loss == "remove_bonus":
            changed = replace(changed, health=changed.health + delta)
        else:
            changed = replace(changed, health=min(changed.health, changed.max_health))
    if name == "burn":
        if stored <= 0:
            changed = replace(changed, burn_turn=None)
        elif merc.burn_turn is None:
            changed = replace(changed, burn_turn=state.turn)
    state = state.with_merc(changed)
    if after != before or changed.stored(name) != merc.stored(name):
        events.append(
            event(
                "status",
                f"{state.label(merc)}: {_status_words(name, after)} ({why}).",
                merc=merc_id,
                status=name,
                count=after,
                stored=changed.stored(name),
                why=why,
            )
        )
    if changed.health <= 0:
        state = destroy(state, merc_id, events, f"{name} removed")
    return state


def _status_words(name: str, count: int) -> str:
    shape = statuses.STATUSES[name].shape
    if count == 0:
        return f"no {name}"
    if shape == "flag":
        return name
    if shape == "level":
        return f"{name} {count}"
    return f"{count} {name} counter{'s' * (count != 1)}"
