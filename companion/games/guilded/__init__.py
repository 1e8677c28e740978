"""Seize: Guilded Treasures, a trading card game: the match companion's rule engine.

Players keep their real cards on a real playmat; Purser keeps the books: each Vault
(loot, the life total) with a reason for every change, deck and hand counts, the turn's
phases and what each allows, the mercenaries in play with their stats, position and
status counters (applied at the right phase), damage maths, format set-up, the match
timer and best-of-N, and deck checks.

How Purser reads the rulebook (each open point is a house rule in :data:`RULES`;
docs/rules/guilded.md has the full reading):

- Formats (:mod:`.formats`): Standard 1v1/2v2 30 loot, 40 cards, 50 minutes; Draft 20
  loot, 30 cards, 40 minutes after 15 minutes of deck building; Arena 1v1/2v2 30-card
  single-class deck plus a Champion in play from the start, best of 3, 40 minutes, 4
  pillars placed in turn, no plundering, bounty, entering or exiting, teammates share a
  turn; Guild Master 40 loot, 60 cards plus a Rare or Legendary Guild Master kept in the
  Guild Quarters until played. Casual play has no timer. 2v2 teams sit alternately;
  three players in Standard play each for themselves.
- Losing: a Vault at 0, drawing from an empty deck, a fallen Guild Master (Guild
  Master), no mercenaries left (Arena), conceding. Acquire costs 1 loot a card; a
  destroyed mercenary's bounty leaves its owner's Vault; plunder takes the plunderer's
  bounty from the Guild Hall's owner (``plunder_loot``).
- Phases (:mod:`.phases`) and status timing (:mod:`.statuses`): Exhaust -1 at its
  controller's Beginning; Regen at Rally; Frost set at First Movement limits the turn's
  movement and comes off at its end; Burn acts at the start of its controller's next
  Attack phase and comes off at its end (the rulebook's "frost counters" in the Burn
  paragraph read as burn counters); Bleed hits at each End phase; Blind ends at its
  controller's End phase, Silence and Fog at the next End phase.
- Damage (:mod:`.damage`): physical (armour, defence), magic (magic armour, defence),
  true (ignores armour; defence per ``true_damage_defence``), pure (defence only),
  lethal (destroys at half health or less). Defence is one use; poison adds.
- Time (:mod:`.clock`) enters as data: actions carry ``"at"`` seconds; the engine never
  reads a clock. Coin flips and d6 rolls come from the seeded generator in the state
  unless the table types in a real coin or die (or the camera reads the die).
"""

from companion.games.guilded.game import (
    ACTIONS_HELP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    RULES,
    TITLE,
    apply,
    initial_state,
    legal_actions,
    public_action,
    summary,
)

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
