"""7 Seize's house rules, and the immutable state of a game in progress."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import Rule
from companion.games.seven_seize.cards import Deck
from companion.games.seven_seize.weighoff import WeighOff

ROUNDS = 7
PIECES_PER_ROUND = 7
BOOTY = ROUNDS * PIECES_PER_ROUND  # 49 pieces in the bag
HAND = 3  # cards in hand at the start of a round
DRAW = 2  # cards drawn after each round
INTERLOPER = "Interloper"

# Phases of a round, then of the end of the game.
SQUABBLE, DIVVY, SEIZE, WEIGHOFF, OVER = "squabble", "divvy", "seize", "weighoff", "over"

RULES: tuple[Rule, ...] = (
    Rule("cursed", False, "Cursed Treasure: the lightest collection wins the weigh-off"),
    Rule(
        "squabble_tie",
        "previous_captain",
        "ties for Captain after round 1: the previous Captain picks among the tied players "
        "(the rulebook), or the suit order spades, hearts, diamonds, clubs decides as in round 1",
        choices=("previous_captain", "suit"),
    ),
    Rule(
        "squabble_face_tie",
        "rank",
        "when the suit cannot break a tie for Captain (face cards of one suit all count 1): "
        "the rank order A, K, Q, J decides, or the earlier seat",
        choices=("rank", "seat"),
    ),
    Rule(
        "seize_tie",
        "captain",
        "players who revealed the same rank in the seize phase: the Captain sets their order "
        "(the rulebook), or spades, hearts, diamonds, clubs",
        choices=("captain", "suit"),
    ),
    Rule(
        "quartermaster_return",
        "whole_collection",
        "the Quartermaster (K) returns as many pieces as seized, chosen from the whole "
        "collection including the new pieces (a swap: counts stay), or only from pieces held "
        "before seizing (returning all of them if there are fewer)",
        choices=("whole_collection", "previous_collection"),
    ),
    Rule(
        "strumpet_steal",
        "same_colour",
        "whom the Strumpet (Q) may steal from: a player who revealed the same colour this round, "
        "or any player holding booty",
        choices=("same_colour", "any_player"),
    ),
    Rule(
        "interloper_weighs",
        True,
        "2 players: the Interloper's collection takes part in the weigh-off (if it wins, both players lose)",
    ),
    Rule(
        "balance",
        "one_pan",
        "one pan: weigh each collection once and show the bracket; two pans: contest each pair "
        "at once, one collection on each load cell",
        choices=("one_pan", "two_pans"),
    ),
    Rule(
        "booty",
        "weights",
        "what is weighed: booty by weight (scale, or grams typed from a kitchen scale), or "
        "dominoes counted by pips (the rulebook's no-scale option)",
        choices=("weights", "dominoes"),
    ),
    Rule(
        "tie_confidence",
        0.95,
        "confidence level for calling a weigh-off contest a clear win; "
        "closer than that is a tie (remove one piece each and re-weigh)",
        minimum=0.5,
        maximum=0.9999,
    ),
    Rule(
        "typed_resolution_g",
        1.0,
        "the display step of the scale whose grams are typed in; such a "
        "reading may be off by one step either way (standard uncertainty step/√3)",
        minimum=0.001,
        maximum=100.0,
    ),
    Rule(
        "tie_pieces",
        "return",
        "pieces removed to break a weigh-off tie go back after that contest, or stay out for the rest of the weigh-off",
        choices=("return", "stay_out"),
    ),
    Rule(
        "domino_max_pips",
        18,
        "most pips on one domino (18 for double-nine, 12 for double-six sets); a count the set cannot show is refused",
        minimum=1,
        maximum=36,
    ),
    Rule(
        "lightest_piece_g",
        0.2,
        "the lightest piece of booty in grams (weigh it once): n pieces read as "
        "less than n times this are refused, to be weighed again",
        minimum=0.0,
        maximum=1000.0,
    ),
    Rule(
        "heaviest_piece_g",
        100.0,
        "the heaviest piece of booty in grams (weigh it once): n pieces read as "
        "more than n times this are refused, to be weighed again",
        minimum=0.001,
        maximum=10000.0,
    ),
    Rule(
        "piece_spread",
        20.0,
        "no piece weighs more than this many times another (the rulebook's 'similar "
        "but unequal weight'): the collections weighed first narrow the lightest and heaviest piece; "
        "0: not used",
        minimum=0.0,
        maximum=1000.0,
    ),
)


@dataclass(frozen=True)
class Settings:
    """The house rules of one game (see :data:`RULES` for their meaning)."""

    cursed: bool = False
    squabble_tie: str = "previous_captain"
    squabble_face_tie: str = "rank"
    seize_tie: str = "captain"
    quartermaster_return: str = "whole_collection"
    strumpet_steal: str = "same_colour"
    interloper_weighs: bool = True
    balance: str = "one_pan"
    booty: str = "weights"
    tie_confidence: float = 0.95
    typed_resolution_g: float = 1.0
    tie_pieces: str = "return"
    domino_max_pips: int = 18
    lightest_piece_g: float = 0.2
    heaviest_piece_g: float = 100.0
    piece_spread: float = 20.0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        """Settings from a resolved config (missing keys take their defaults)."""
        defaults = {r.key: r.default for r in RULES}
        values = {k: config.get(k, v) for k, v in defaults.items()}
        return cls(
            cursed=bool(values["cursed"]),
            squabble_tie=str(values["squabble_tie"]),
            squabble_face_tie=str(values["squabble_face_tie"]),
            seize_tie=str(values["seize_tie"]),
            quartermaster_return=str(values["quartermaster_return"]),
            strumpet_steal=str(values["strumpet_steal"]),
            interloper_weighs=bool(values["interloper_weighs"]),
            balance=str(values["balance"]),
            booty=str(values["booty"]),
            tie_confidence=float(values["tie_confidence"]),
            typed_resolution_g=float(values["typed_resolution_g"]),
            tie_pieces=str(values["tie_pieces"]),
            domino_max_pips=int(values["domino_max_pips"]),
            lightest_piece_g=float(values["lightest_piece_g"]),
            heaviest_piece_g=float(values["heaviest_piece_g"]),
            piece_spread=float(values["piece_spread"]),
        )


@dataclass(frozen=True)
class Pending:
    """A decision the game waits on during the seize phase or the squabble.

    ``kind``: ``captain`` (the previous Captain picks among ``seats``), ``order`` (the
    Captain orders ``seats``, who revealed the same rank), ``quartermaster`` (``seat``
    returns ``amount`` pieces to the ``stash``), ``strumpet`` (``seat`` seizes or steals),
    ``pick`` (the non-Captain picks ``amount`` pieces from ``stash`` for the Interloper).
    """

    kind: str
    seat: int = -1
    seats: tuple[int, ...] = ()
    amount: int = 0
    stash: str = ""


@dataclass(frozen=True)
class RoundRecord:
    """One finished round, for the history screen. Cards are per seat (``None``: no card)."""

    round: int
    captain: int
    squabble: tuple[str | None, ...]
    seize: tuple[str | None, ...]
    red: int
    black: int
    order: tuple[int, ...]
    gained: tuple[int, ...]


@dataclass(frozen=True)
class SeizeState:
    """Everything Purser knows of a game of 7 Seize.

    ``seats`` are the players, then the Interloper in a 2-player game; ``collections``,
    ``seize_cards`` and ``start`` follow ``seats``, ``squabble_cards`` follows ``players``.
    ``captain``/``previous_captain`` are player indexes. ``red``/``black`` are the
    stashes, ``bag`` the pieces not yet divvied. ``orders`` holds the acting orders the
    Captain set for tied ranks; ``pos`` counts seize-phase turns taken (face cards, then
    the Number cards' round and round). ``start`` is each collection at the start of the
    round.
    """

    players: tuple[str, ...]
    seats: tuple[str, ...]
    settings: Settings
    seed: int
    round: int
    phase: str
    captain: int | None
    previous_captain: int | None
    bag: int
    red: int
    black: int
    collections: tuple[int, ...]
    start: tuple[int, ...]
    squabble_cards: tuple[str | None, ...]
    seize_cards: tuple[str | None, ...]
    divvied: tuple[int, int]
    orders: tuple[tuple[int, ...], ...]
    pos: int
    pending: Pending | None
    deck: Deck
    history: tuple[RoundRecord, ...]
    weighoff: WeighOff | None

    @property
    def interloper(self) -> int | None:
        """The Interloper's seat index, or ``None`` with 3 or more players."""
        return len(self.players) if len(self.seats) > len(self.players) else None

    @property
    def non_captain(self) -> int | None:
        """In a 2-player game, the player who is not Captain (they act for the Interloper)."""
        if self.interloper is None or self.captain is None:
            return None
        return 1 - self.captain

    def stash(self, colour: str) -> int:
        """Pieces in the ``"red"`` or ``"black"`` stash."""
        return self.red if colour == "red" else self.black

    @property
    def booty_total(self) -> int:
        """Bag + stashes + collections: always 49."""
        return self.bag + self.red + self.black + sum(self.collections)

    def decider(self, seat: int) -> int:
        """The player who decides for ``seat``: the seat itself, or the non-Captain for the Interloper."""
        if seat == self.interloper:
            assert self.non_captain is not None
            return self.non_captain
        return seat
