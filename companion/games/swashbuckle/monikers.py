"""Monikers and titles: pure functions of a group's history of finished matches.

The rulebook's brackets, pinned to whole-number plunder (its "<130 shark bait <138
knave ..." lists upper limits below a gap and lower limits above it):

==================  =========
plunder             moniker
==================  =========
129 or less         Shark Bait
130-137             Knave
138-146             Cabin Boy
147-156             Scallywag
157-168             Sea Hag
169-180             Rascalion
181-228             (none)
229-242             Buccaneer
243-254             Seadog
255-266             Swashbuckler
267-289             Coxswain
290-300             Quartermaster
301-340             First Mate
341 or more         Captain
==================  =========

A player keeps the highest moniker they have ever earned (a lower score never takes it
away). There is only one Captain: among the players who earned it, the one with the
highest match score keeps it (an equal score: whoever reached it first), and the others
are First Mates. "Scourge of the 7 Seas": more than 340 in at least 3 matches. "Kraken":
more than 330 in six consecutive matches played against at least two other players
(matches with fewer opponents neither count nor break the run); it is a title, not a
moniker, and gives no Captain's privileges. Titles are worked out from the whole history
every time, so replaying or undoing a match can never count it twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SCOURGE_ABOVE = 340
SCOURGE_MATCHES = 3
KRAKEN_ABOVE = 330
KRAKEN_MATCHES = 6
KRAKEN_OPPONENTS = 2
SCOURGE = "Scourge of the 7 Seas"
KRAKEN = "Kraken"


@dataclass(frozen=True)
class Moniker:
    """A rank: ``key``, ``label``, ``rank`` (higher is better) and the plunder it takes."""

    key: str
    label: str
    rank: int
    lowest: int | None
    highest: int | None


MONIKERS: tuple[Moniker, ...] = (
    Moniker("shark_bait", "Shark Bait", 1, None, 129),
    Moniker("knave", "Knave", 2, 130, 137),
    Moniker("cabin_boy", "Cabin Boy", 3, 138, 146),
    Moniker("scallywag", "Scallywag", 4, 147, 156),
    Moniker("sea_hag", "Sea Hag", 5, 157, 168),
    Moniker("rascalion", "Rascalion", 6, 169, 180),
    Moniker("buccaneer", "Buccaneer", 7, 229, 242),
    Moniker("seadog", "Seadog", 8, 243, 254),
    Moniker("swashbuckler", "Swashbuckler", 9, 255, 266),
    Moniker("coxswain", "Coxswain", 10, 267, 289),
    Moniker("quartermaster", "Quartermaster", 11, 290, 300),
    Moniker("first_mate", "First Mate", 12, 301, 340),
    Moniker("captain", "Captain", 13, 341, None),
)
BY_KEY = {m.key: m for m in MONIKERS}
CAPTAIN = BY_KEY["captain"]
FIRST_MATE = BY_KEY["first_mate"]


def moniker_for(plunder: int) -> Moniker | None:
    """The moniker one match's plunder earns (None for 181-228)."""
    for m in MONIKERS:
        if (m.lowest is None or plunder >= m.lowest) and (m.highest is None or plunder <= m.highest):
            return m
    return None


@dataclass(frozen=True)
class MatchResult:
    """One finished match: each player's plunder (as monikers judge it), in seating order."""

    plunder: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, plunder: Mapping[str, int]) -> MatchResult:
        return cls(tuple((name, int(p)) for name, p in plunder.items()))

    @property
    def opponents(self) -> int:
        return len(self.plunder) - 1


@dataclass(frozen=True)
class Titles:
    """What a player is called: their ``moniker``, and the Scourge and Kraken titles."""

    name: str
    moniker: Moniker | None
    scourge: bool
    kraken: bool
    best: int
    matches: int
    demoted: bool = False

    @property
    def prefix(self) -> str:
        """The words before the pirate name: ``Scourge of the 7 Seas Captain Kraken``."""
        parts = [SCOURGE] if self.scourge else []
        if self.moniker is not None:
            parts.append(self.moniker.label)
        if self.kraken:
            parts.append(KRAKEN)
        return " ".join(parts)

    def styled(self, pirate_name: str | None = None) -> str:
        """The full address: prefix and pirate name."""
        name = pirate_name or self.name
        return f"{self.prefix} {name}" if self.prefix else name

    def to_json(self) -> dict[str, Any]:
        return {
            "moniker": self.moniker.key if self.moniker else None,
            "moniker_label": self.moniker.label if self.moniker else None,
            "scourge": self.scourge,
            "kraken": self.kraken,
            "best": self.best,
            "matches": self.matches,
            "demoted": self.demoted,
            "title": self.prefix,
        }


def _kraken(scores: Sequence[tuple[int, int]]) -> bool:
    """Six consecutive matches with two or more opponents, each above 330."""
    run = 0
    for plunder, opponents in scores:
        if opponents < KRAKEN_OPPONENTS:
            continue
        run = run + 1 if plunder > KRAKEN_ABOVE else 0
        if run >= KRAKEN_MATCHES:
            return True
    return False


def titles(history: Sequence[MatchResult]) -> dict[str, Titles]:
    """Every player's titles after ``history`` (finished matches, oldest first)."""
    played: dict[str, list[tuple[int, int]]] = {}
    first_best: dict[str, tuple[int, int]] = {}
    for when, match in enumerate(history):
        for name, plunder in match.plunder:
            played.setdefault(name, []).append((plunder, match.opponents))
            if name not in first_best or plunder > first_best[name][0]:
                first_best[name] = (plunder, when)
    found: dict[str, Titles] = {}
    for name, scores in played.items():
        earned = [m for m in (moniker_for(p) for p, _ in scores) if m is not None]
        best_moniker = max(earned, key=lambda m: m.rank) if earned else None
        found[name] = Titles(
            name=name,
            moniker=best_moniker,
            scourge=sum(1 for p, _ in scores if p > SCOURGE_ABOVE) >= SCOURGE_MATCHES,
            kraken=_kraken(scores),
            best=first_best[name][0],
            matches=len(scores),
        )
    captains = [n for n, t in found.items() if t.moniker == CAPTAIN]
    if len(captains) > 1:
        keeper = max(captains, key=lambda n: (first_best[n][0], -first_best[n][1]))
        for n in captains:
            if n != keeper:
                t = found[n]
                found[n] = Titles(t.name, FIRST_MATE, t.scourge, t.kraken, t.best, t.matches, demoted=True)
    return found
