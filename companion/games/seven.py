"""The card game "7": totals up to seven, victory chips for the finishing order.

Players hold real cards; Purser keeps the discard pile's total, checks each play against
rules 2-6, counts cards in hands and piles, calls "Seven", hands out chips and ends the
game.

How Purser reads the rulebook (the card faces are not described in it):

- A card has one printed number (1 to ``highest_card``) and a hole. The top card of the
  discard pile shows a *total*: its own number, plus the number of the card beneath when
  it was laid with its hole on that number ("on number"). Laid "on hole" (hole on hole),
  it shows only its own number. A play can also just state the total the pile now shows.
- Rule 3: a play must not make the total lower than the total before it, nor above 7.
- Rule 4: after a play the player draws a card, unless the play made exactly 7.
- Rule 5: at 7 the pile is set aside and the same player starts a new pile without
  drawing. If that was their last card, the next player with cards starts the new pile
  (and draws, like any player who starts a pile under rule 1).
- Rule 6: a player who cannot (or will not) play takes a penalty card; their turn ends.
- Rule 7: "the player who lays down their cards first and reaches the total of 7 with
  their last card wins the round". With ``finish_on=seven`` (the literal reading, the
  default) a hand only runs out that way: a player who starts a new pile after a Seven
  with their last card (rule 5, no draw) has not made 7 with it, so draws one card and
  plays on. With ``finish_on=empty_hand`` any empty hand finishes. Either way a finished
  player takes the next finishing place, and the round ends when one player still has
  cards (they finish last). A hand that empties when nothing is left to draw finishes too.
- Chips: first place gets as many chips as there are players, each later place one fewer.
  2-4 players: the game ends after ``rounds`` rounds. 5-7 players: it ends when the
  ``chips`` are all handed out; in the last round they go in finishing order until none
  are left.
- An empty draw pile is refilled by shuffling the set-aside cards; if there are none, the
  draw is skipped (announced).

The first round is started by the first player listed (seat the youngest first); who
starts later rounds is the ``next_round_starter`` house rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    ConfigError,
    Event,
    IllegalAction,
    Rule,
    Summary,
    action_type,
    check_players,
    event,
    get_field,
    get_player,
    shown,
)

NAME = "seven"
TITLE = '"7"'
MIN_PLAYERS = 2
MAX_PLAYERS = 7
TARGET = 7

RULES: tuple[Rule, ...] = (
    Rule("hand_size", 7, "cards dealt to each player at the start of a round", minimum=1, maximum=11),
    Rule("deck_size", 80, "cards in the deck", minimum=14, maximum=200),
    Rule("highest_card", 7, "the highest number printed on a card (cards run from 1)", minimum=1, maximum=7),
    Rule("rounds", 7, "rounds played with 2-4 players", minimum=1, maximum=99),
    Rule("chips", 80, "victory chips in the box; with 5-7 players the game ends when they run out", minimum=1),
    Rule(
        "finish_on",
        "seven",
        "how a player runs out of cards (rule 7): only by reaching 7 with their last card, so one who "
        "starts a new pile with their last card draws and plays on (seven); or whenever the hand is empty "
        "(empty_hand)",
        choices=("seven", "empty_hand"),
    ),
    Rule(
        "next_round_starter",
        "next_seat",
        "who starts rounds after the first: the next seat clockwise, the last round's winner, "
        "or the player who finished last",
        choices=("next_seat", "round_winner", "last_place"),
    ),
)

ACTIONS_HELP = """\
"7" actions (players are named as seated; the first listed starts round 1):
  {"type": "play", "player": "Ana", "card": 3, "on": "hole"}    lay a 3 hole on hole (total shows 3)
  {"type": "play", "player": "Ana", "card": 2, "on": "number"}  lay a 2 hole on number (total = 2 + number beneath)
  {"type": "play", "player": "Ana", "total": 5}                 lay a card; the pile now shows 5
  {"type": "penalty", "player": "Ben"}                         cannot play: take a penalty card
Purser draws for the player after a play and calls "Seven" itself."""


@dataclass(frozen=True)
class SevenState:
    """Everything public about a game of "7" (hands are hidden; only their sizes are known).

    Counts: ``hands`` per seat, ``draw_pile``, ``pile`` (cards in the discard pile),
    ``set_aside`` (discard piles completed with a 7). ``total`` is what the discard pile
    shows (0 when empty), ``top`` the printed number of its top card when known.
    """

    players: tuple[str, ...]
    hand_size: int
    deck_size: int
    highest_card: int
    rounds: int
    chip_pool: int
    next_round_starter: str
    seed: int
    finish_on: str
    round: int
    round_starter: int
    turn: int
    hands: tuple[int, ...]
    draw_pile: int
    pile: int
    set_aside: int
    total: int
    top: int | None
    no_draw_start: bool
    finishing: tuple[int, ...]
    chips: tuple[int, ...]
    chips_left: int
    round_results: tuple[tuple[int, ...], ...]
    over: bool

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still holding cards this round."""
        return tuple(i for i, n in enumerate(self.hands) if n > 0)


def initial_state(config: Mapping[str, Any], players: Sequence[str], seed: int) -> SevenState:
    """A new game: round 1 dealt, the first seat to play.

    Raises:
        ConfigError: a bad seating, or a deck too small to deal.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    hand_size = int(config.get("hand_size", 7))
    deck_size = int(config.get("deck_size", 80))
    if hand_size * len(names) >= deck_size:
        raise ConfigError(f"a deck of {deck_size} cannot deal {hand_size} cards to {len(names)} players")
    state = SevenState(
        players=names,
        hand_size=hand_size,
        deck_size=deck_size,
        highest_card=int(config.get("highest_card", 7)),
        rounds=int(config.get("rounds", 7)),
        chip_pool=int(config.get("chips", 80)),
        next_round_starter=str(config.get("next_round_starter", "next_seat")),
        seed=seed,
        finish_on=str(config.get("finish_on", "seven")),
        round=0,
        round_starter=0,
        turn=0,
        hands=(),
        draw_pile=0,
        pile=0,
        set_aside=0,
        total=0,
        top=None,
        no_draw_start=False,
        finishing=(),
        chips=(0,) * len(names),
        chips_left=int(config.get("chips", 80)),
        round_results=(),
        over=False,
    )
    return _deal(state, 1, 0)


def _deal(state: SevenState, round_no: int, starter: int) -> SevenState:
    n = len(state.players)
    return replace(
        state,
        round=round_no,
        round_starter=starter,
        turn=starter,
        hands=(state.hand_size,) * n,
        draw_pile=state.deck_size - state.hand_size * n,
        pile=0,
        set_aside=0,
        total=0,
        top=None,
        no_draw_start=False,
        finishing=(),
    )


# -- legal actions ------------------------------------------------------------------------


def _play_total(state: SevenState, action: Mapping[str, Any]) -> tuple[int, int | None]:
    """The total a play makes and the printed number of the card laid (if stated)."""
    card = get_field(action, "card", int, optional=True)
    total = get_field(action, "total", int, optional=True)
    on = get_field(action, "on", str, optional=True)
    if card is None and total is None:
        raise IllegalAction(
            'a play needs the "card" laid (with "on": "hole" or "number") or the "total" the pile shows'
        )
    if card is not None and not 1 <= card <= state.highest_card:
        raise IllegalAction(f"cards are numbered 1 to {state.highest_card}; there is no {card}")
    if card is None:
        assert total is not None
        if total < 1:
            raise IllegalAction("the pile always shows at least 1 after a card is laid")
        return total, None
    if state.pile == 0:
        made = card
    elif on in (None, "hole"):
        if on is None:
            raise IllegalAction('say how the card was laid: "on": "hole" or "on": "number"')
        made = card
    elif on == "number":
        if state.top is None:
            raise IllegalAction('the number beneath is not known; give the "total" the pile now shows instead')
        made = card + state.top
    else:
        raise IllegalAction(f'"on" must be "hole" or "number", not {shown(on)}')
    if total is not None and total != made:
        raise IllegalAction(f"laying that card makes {made}, not {total}")
    return made, card


def legal_actions(state: SevenState) -> list[dict[str, Any]]:
    """Every play (by card and placement) and the penalty draw open to the player to act."""
    if state.over:
        return []
    player = state.players[state.turn]
    actions: list[dict[str, Any]] = []
    for card in range(1, state.highest_card + 1):
        if state.pile == 0:
            actions.append({"type": "play", "player": player, "card": card, "on": "hole"})
            continue
        if state.total <= card <= TARGET:
            actions.append({"type": "play", "player": player, "card": card, "on": "hole"})
        if state.top is not None and state.total <= card + state.top <= TARGET:
            actions.append({"type": "play", "player": player, "card": card, "on": "number"})
    if state.pile > 0:
        actions.append({"type": "penalty", "player": player})
    return actions


# -- applying -----------------------------------------------------------------------------


def apply(state: SevenState, action: Mapping[str, Any]) -> tuple[SevenState, list[Event]]:
    """Apply one action; returns the new state and its events.

    Raises:
        IllegalAction: out of turn, a total that breaks rule 3, or a malformed action.
    """
    kind = action_type(action)
    if state.over:
        raise IllegalAction("the game is over")
    player = get_player(action, state.players)
    seat = state.players.index(player)
    if seat != state.turn:
        raise IllegalAction(f"it is {state.players[state.turn]}'s turn, not {player}'s")
    if kind == "play":
        return _play(state, seat, action)
    if kind == "penalty":
        if state.pile == 0:
            raise IllegalAction(f"{player} is starting a new pile and can lay any card; no penalty")
        events = [event("penalty", f"{player} cannot play and takes a penalty card.", player=player)]
        state = _draw(state, seat, events)
        return _advance(state, seat, events)
    raise IllegalAction(f"{TITLE} has no {shown(kind)} action (it has play and penalty)")


def _play(state: SevenState, seat: int, action: Mapping[str, Any]) -> tuple[SevenState, list[Event]]:
    player = state.players[seat]
    made, card = _play_total(state, action)
    if made > TARGET:
        raise IllegalAction(f"that makes {made}: the total may not go above {TARGET}. Take a penalty card instead.")
    if state.pile > 0 and made < state.total:
        raise IllegalAction(
            f"that makes {made}, lower than the {state.total} showing. Play {state.total} to {TARGET}, "
            "or take a penalty card."
        )
    hands = list(state.hands)
    hands[seat] -= 1
    laid = f"a {card}" if card is not None else "a card"
    events: list[Event] = [
        event("played", f"{player} lays {laid}; the pile shows {made}.", player=player, card=card, total=made)
    ]
    starting_without_draw = state.no_draw_start
    state = replace(state, hands=tuple(hands), pile=state.pile + 1, total=made, top=card, no_draw_start=False)
    if made == TARGET:
        events.append(event("seven", f'{player} calls "Seven!" The pile is set aside.', player=player))
        state = replace(state, set_aside=state.set_aside + state.pile, pile=0, total=0, top=None)
        if state.hands[seat] > 0:
            events.append(event("restart", f"{player} starts a new pile, without drawing.", player=player))
            return replace(state, no_draw_start=True), events
        return _advance(state, seat, events)
    if not starting_without_draw:
        state = _draw(state, seat, events)
    elif state.hands[seat] == 0 and state.finish_on == "seven":
        events.append(
            event(
                "no_seven",
                f"{player} laid their last card without making {TARGET}: a round is won only by reaching "
                f"{TARGET} with the last card, so {player} draws a card and plays on.",
                player=player,
            )
        )
        state = _draw(state, seat, events)
    return _advance(state, seat, events)


def _draw(state: SevenState, seat: int, events: list[Event]) -> SevenState:
    """One card from the draw pile to ``seat``, reshuffling set-aside cards when it is empty."""
    if state.draw_pile == 0 and state.set_aside > 0:
        events.append(
            event(
                "reshuffle",
                f"The draw pile is empty: shuffle the {state.set_aside} set-aside cards into a new one.",
                cards=state.set_aside,
            )
        )
        state = replace(state, draw_pile=state.set_aside, set_aside=0)
    if state.draw_pile == 0:
        events.append(event("no_draw", "There are no cards left to draw.", player=state.players[seat]))
        return state
    hands = list(state.hands)
    hands[seat] += 1
    events.append(event("drew", f"{state.players[seat]} draws a card.", player=state.players[seat]))
    return replace(state, hands=tuple(hands), draw_pile=state.draw_pile - 1)


def _advance(state: SevenState, seat: int, events: list[Event]) -> tuple[SevenState, list[Event]]:
    """Record anyone who has run out of cards, end the round if due, else pass the turn."""
    finishing = list(state.finishing)
    for i, count in enumerate(state.hands):
        if count == 0 and i not in finishing:
            finishing.append(i)
            place = len(finishing)
            events.append(
                event(
                    "finished",
                    f"{state.players[i]} has no cards left and finishes {_ordinal(place)}.",
                    player=state.players[i],
                    place=place,
                )
            )
    state = replace(state, finishing=tuple(finishing))
    remaining = state.in_play
    if len(remaining) <= 1:
        return _end_round(state, events)
    n = len(state.players)
    nxt = (seat + 1) % n
    while state.hands[nxt] == 0:
        nxt = (nxt + 1) % n
    return replace(state, turn=nxt), events


def _end_round(state: SevenState, events: list[Event]) -> tuple[SevenState, list[Event]]:
    order = list(state.finishing) + [i for i in state.in_play if i not in state.finishing]
    n = len(state.players)
    chips = list(state.chips)
    left = state.chips_left
    limited = n >= 5
    for place, seat in enumerate(order):
        award = n - place
        if limited:
            award = min(award, left)
            left -= award
        chips[seat] += award
        if award:
            events.append(
                event(
                    "chips",
                    f"{state.players[seat]} ({_ordinal(place + 1)}) receives {award} chip{'s' * (award != 1)}.",
                    player=state.players[seat],
                    chips=award,
                )
            )
    results = (*state.round_results, tuple(order))
    state = replace(state, chips=tuple(chips), chips_left=left if limited else state.chips_left, round_results=results)
    over = (left == 0) if limited else (state.round >= state.rounds)
    if over:
        best = max(chips)
        winners = [state.players[i] for i, c in enumerate(chips) if c == best]
        events.append(
            event(
                "game_over",
                f"Game over: {' and '.join(winners)} win{'s' * (len(winners) == 1)} with {best} chips.",
                winners=winners,
            )
        )
        return replace(state, over=True, turn=0), events
    starter = {
        "round_winner": order[0],
        "last_place": order[-1],
    }.get(state.next_round_starter, (state.round_starter + 1) % n)
    events.append(
        event(
            "round",
            f"Round {state.round + 1}: deal {state.hand_size} card{'s' * (state.hand_size != 1)} each; "
            f"{state.players[starter]} starts.",
            round=state.round + 1,
            starter=state.players[starter],
        )
    )
    return _deal(state, state.round + 1, starter), events


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# -- summary ------------------------------------------------------------------------------


def summary(state: SevenState) -> Summary:
    """Chips so far, who plays next and what they may do."""
    scores = {p: float(c) for p, c in zip(state.players, state.chips, strict=False)}
    detail = {
        "round": state.round,
        "total": state.total,
        "top": state.top,
        "hands": dict(zip(state.players, state.hands, strict=False)),
        "draw_pile": state.draw_pile,
        "pile": state.pile,
        "set_aside": state.set_aside,
        "finishing": [state.players[i] for i in state.finishing],
        "chips_left": state.chips_left if len(state.players) >= 5 else None,
        "rounds": state.rounds,
    }
    if state.over:
        best = max(state.chips)
        winners = tuple(p for p, c in zip(state.players, state.chips, strict=False) if c == best)
        return Summary(scores, (), f"Game over: {' and '.join(winners)} won with {best} chips.", True, winners, detail)
    player = state.players[state.turn]
    if state.pile == 0:
        how = "without drawing afterwards" if state.no_draw_start else "then draw"
        prompt = f"{player}: start a new pile with any card ({how})."
    else:
        prompt = (
            f"{player}: the pile shows {state.total}; lay a card making {state.total} to {TARGET}, "
            "or take a penalty card."
        )
    return Summary(scores, (player,), prompt, False, (), detail)
