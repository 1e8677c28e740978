"""7 Seize (Jeep Barnett): seize the heaviest collection of booty in 7 rounds, then weigh it.

Players hold real cards and real booty; they tell Purser which cards were revealed and
what they decided, and Purser referees: who is Captain, who acts when and what each card
does, how many pieces each collection, stash and the bag hold, which cards are still out
and when the deck reshuffles, and finally the weigh-off on the balance.

How Purser reads the rulebook (every gap is a house rule in :data:`RULES`, documented in
``docs/rules/seven-seize.md``):

- **Setting up**: 2-7 players, 49 pieces in the bag, 7 rounds of 7 pieces, 52 cards (the
  jokers mark the stashes), 3 cards each.
- **Squabble for Captain**: every player reveals a card; the highest Number card wins,
  J/Q/K/A count 1. Ties: round 1 by suit (spades, hearts, diamonds, clubs); later rounds
  the previous Captain chooses among the tied players (``squabble_tie``). Face cards of
  one suit all count 1, so the suit cannot split them: ``squabble_face_tie``.
- **Divvy**: the Captain puts the 7 pieces on the Red and Black stashes, at least 1 each.
- **Seize**: every player reveals a card; red cards seize from Red, black from Black.
  Acting order A, K, Q, J, then 10 down to 2; players with the same rank act in the order
  the Captain sets (``seize_tie``). Lookout (A) seizes 1; Quartermaster (K) seizes the
  whole stash, then returns as many pieces from the whole collection
  (``quartermaster_return``); Strumpet (Q) seizes 1 or steals 1 from a player who
  revealed the same colour this round (``strumpet_steal``); Knave (J) seizes 2; Number
  cards seize 1 each, highest first, round and round until their stash is empty. A
  player whose stash is empty seizes nothing.
- **Swab**: what is left in both stashes goes to whoever acted first. Each player keeps
  the last card and draws 2; an empty draw deck is at once replaced by the shuffled
  discards.
- **2 players**: the Interloper seizes and is stolen from like a player. After the divvy
  the non-Captain puts the top card of the deck face down for it, decides its
  Strumpet's and Quartermaster's choices and picks the pieces it seizes. Whether its
  collection enters the weigh-off: ``interloper_weighs``.
- **Booty weights** are unknown during play (players judge by hand): Purser counts
  pieces, and weights appear only at the weigh-off.
- **Weigh-off** (:mod:`companion.games.seven_seize.weighoff`): one pan or two (``balance``), by weight
  or domino pips (``booty``); a difference inside the combined uncertainty at
  ``tie_confidence`` is a tie, resolved by each removing one piece and re-weighing;
  ``cursed``: the lightest collection wins. A reading the pieces on the pan cannot give
  (:mod:`companion.games.seven_seize.plausible`: piece weights, removals, the domino set)
  is refused with the reason, to be weighed again.
- **2-player prompts**: the non-Captain reveals the Interloper's card and decides for it;
  the Interloper's pieces are listed among the scores.
"""

from companion.games.seven_seize.game import (
    ACTIONS_HELP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    RULES,
    TITLE,
    SeizeState,
    apply,
    initial_state,
    legal_actions,
    summary,
)

__all__ = [
    "ACTIONS_HELP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "RULES",
    "TITLE",
    "SeizeState",
    "apply",
    "initial_state",
    "legal_actions",
    "summary",
]
