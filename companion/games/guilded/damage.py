"""Damage maths: one hit of damage against one mercenary's reductions.

Damage types (rulebook "Different Types of Damage"):

- ``physical``: reduced by armour, then by defence;
- ``magic``: reduced by magic armour, then by defence;
- ``true``: ignores armour and magic armour; defence only with ``true_damage_defence``;
- ``pure``: reduced only by defence;
- ``lethal``: destroys a mercenary at half its maximum health or less, ignoring every
  reduction and alteration; above half, ``lethal_above_half`` decides.

Defence is one use: it absorbs up to its value from the first hit that reaches it (after
armour), then is spent until restored. A hit that armour stops completely does not spend
it. Poison adds its counters to the damage (``poison_timing``: after reductions by
default, and only when some damage gets through; or before reductions). Health never
goes below 0; a mercenary at 0 is destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import IllegalAction, shown

DAMAGE_TYPES = ("physical", "magic", "true", "pure", "lethal")


@dataclass(frozen=True)
class Defender:
    """What a hit is measured against (all in health points / counters)."""

    health: int
    max_health: int
    armour: int = 0
    magic_armour: int = 0
    defence: int = 0
    defence_ready: bool = True
    poison: int = 0


@dataclass(frozen=True)
class DamageRules:
    """The house rules that change damage maths."""

    true_damage_defence: bool = False
    poison_timing: str = "after_reduction"
    lethal_above_half: str = "no_effect"


@dataclass(frozen=True)
class Hit:
    """The result of one hit: how much each reduction took and what got through.

    ``dealt`` is the damage after reductions and poison; ``lost`` the health actually
    lost (never more than the mercenary had).
    """

    amount: int
    damage_type: str
    armour: int
    defence: int
    poison: int
    dealt: int
    lost: int
    health_after: int
    defence_spent: bool
    lethal: bool

    @property
    def destroyed(self) -> bool:
        """Whether the hit leaves the mercenary at 0 health."""
        return self.health_after <= 0


def check_type(damage_type: str) -> str:
    """``damage_type`` if it is one of :data:`DAMAGE_TYPES`.

    Raises:
        IllegalAction: an unknown damage type.
    """
    if damage_type not in DAMAGE_TYPES:
        raise IllegalAction(f"damage is one of {', '.join(DAMAGE_TYPES)}, not {shown(damage_type)}")
    return damage_type


def at_half_or_less(health: int, max_health: int) -> bool:
    """Whether ``health`` is half of ``max_health`` or less (lethal range)."""
    return health * 2 <= max_health


def resolve_hit(target: Defender, amount: int, damage_type: str, rules: DamageRules = DamageRules()) -> Hit:
    """Measure ``amount`` damage of ``damage_type`` against ``target``.

    Raises:
        IllegalAction: a negative amount or an unknown damage type.
    """
    check_type(damage_type)
    if amount < 0:
        raise IllegalAction(f"damage cannot be negative ({amount}); use heal to give health back")
    if damage_type == "lethal":
        if at_half_or_less(target.health, target.max_health):
            return Hit(amount, "lethal", 0, 0, 0, target.health, target.health, 0, False, True)
        if rules.lethal_above_half == "no_effect":
            return Hit(amount, "lethal", 0, 0, 0, 0, 0, target.health, False, False)
        damage_type = rules.lethal_above_half
    raw = amount
    poison = 0
    if rules.poison_timing == "before_reduction" and raw > 0 and target.poison > 0:
        poison = target.poison
        raw += poison
    if damage_type == "physical":
        armour = min(raw, max(0, target.armour))
    elif damage_type == "magic":
        armour = min(raw, max(0, target.magic_armour))
    else:
        armour = 0
    through = raw - armour
    defence_applies = damage_type in ("physical", "magic", "pure") or (
        damage_type == "true" and rules.true_damage_defence
    )
    defence = 0
    spent = False
    if defence_applies and target.defence_ready and target.defence > 0 and through > 0:
        defence = min(through, target.defence)
        spent = True
    dealt = through - defence
    if rules.poison_timing == "after_reduction" and dealt > 0 and target.poison > 0:
        poison = target.poison
        dealt += poison
    lost = min(dealt, max(0, target.health))
    return Hit(amount, damage_type, armour, defence, poison, dealt, lost, target.health - lost, spent, False)


def describe(hit: Hit) -> str:
    """The hit in words: ``4 physical: armour -1, defence -2, poison +3 = 4``."""
    if hit.lethal:
        return "lethal damage at half health or less: destroyed outright"
    parts = []
    if hit.armour:
        parts.append(f"armour -{hit.armour}")
    if hit.defence:
        parts.append(f"defence -{hit.defence}")
    if hit.poison:
        parts.append(f"poison +{hit.poison}")
    how = f" ({', '.join(parts)})" if parts else ""
    return f"{hit.amount} {hit.damage_type}{how}: {hit.dealt} damage"
