"""Scallywagger: hidden-dice bidding (the Liar's dice family) with Treasure and Adventure cards.

Each Captain hides their dice (Crewmates) behind a screen. Purser keeps the bidding
honest, counts the revealed dice at a challenge (from the dice camera, or typed in),
settles it, tracks crewmates, the Treasure Token and every card, and names the winner.

How Purser reads the rulebook (players are listed in seating order, clockwise; the
player "to the left" is the next one listed):

- Set-up: every Captain starts with ``crewmates`` dice. The Treasure Token goes to the
  winner of the table's roll-off (``first_captain``: the table names them, or Purser
  picks at random, or the first player listed takes it).
- A turn: the token holder has priority to use a Treasure card, then priority passes
  clockwise; a use starts the round of priority again; bidding begins once every Captain
  who could use a card has declined in a row (Captains with nothing usable are skipped).
  The token holder opens the bidding; each Captain in turn raises, calls out the
  Scallywagger (``call``) or calls a Parlay (``parlay``). Only the Captain whose turn it
  is may call; nobody may call before the first bid.
- Raises follow ``raise_rule`` and ``ones_bids`` (the rulebook's sentence about bids on
  "1" read as a setting; see :mod:`companion.games.scallywagger.bids`); ``wild_ones`` is a
  house rule, off by default. No bid may exceed the dice on the table.
- Scallywagger: the dice are revealed and counted. A confirmed bid (at least that many)
  costs the caller one crewmate and the bidder draws; a false bid costs the bidder one
  and the caller draws.
- Parlay (``parlay``: ``last_bid`` says the standing bid is exactly right; ``any_bid``
  lets the caller name any quantity and face as exact): right, every other Captain
  still in loses one crewmate and the caller *may* draw; wrong, the caller loses two and
  the Captain who placed the standing bid draws.
- A reveal is the dice reader's ``detections`` (every die on the table), the ``dice``
  typed in, or the ``count`` typed in. The number of dice must match the crewmates in
  play. Dice the camera is unsure of wait for a player to ``confirm`` them before the
  challenge is settled.
- The draw: one card from the Treasure or the Adventure deck, the drawer's choice. Then
  the turn ends: Adventure cards held through it are discarded, and the token passes
  clockwise to the next Captain still in.
- Treasure cards lie face up; ``once`` cards are used before bidding then discarded,
  ``lasting`` cards stay (an effect may be used once each turn before bidding),
  ``anytime`` cards are one-time and may also be used during bidding. An Adventure card
  is drawn concealed and may be revealed (``adventure``) by its holder at any moment of
  the next bidding round. Card effects on crewmates are the table's own definitions
  (:mod:`companion.games.scallywagger.cards`); gains are capped by ``max_crewmates``.
- An empty deck is refilled by shuffling its discard pile at the next draw. A Captain
  with no crewmates is out and their cards go to the discard piles; the last Captain
  with crewmates wins.
"""

from companion.games.scallywagger.game import (
    ACTIONS_HELP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    RULES,
    TITLE,
    apply,
    initial_state,
    legal_actions,
    private_view,
    public_action,
    summary,
)
from companion.games.scallywagger.state import ScallywaggerState

__all__ = [
    "ACTIONS_HELP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "RULES",
    "TITLE",
    "ScallywaggerState",
    "apply",
    "initial_state",
    "legal_actions",
    "private_view",
    "public_action",
    "summary",
]
