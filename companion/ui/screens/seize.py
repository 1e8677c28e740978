"""The 7 Seize screen: the round's phase as a stepper, a rank + suit pad for revealed cards,
stashes and collections as counts, the engine's choices as prompts, and the round history.

When round 7 ends the game moves on to the weigh-off screen (same session).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty

from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import gamebar, plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PToggle, fill_buttons
from companion.ui.widgets.table import Cell
from companion.ui.words import action_label

PHASES = (("squabble", "Squabble"), ("divvy", "Divvy"), ("seize", "Seize"), ("weighoff", "Weigh-off"))
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = (("S", "Spades"), ("H", "Hearts"), ("D", "Diamonds"), ("C", "Clubs"))
RED_SUITS = ("H", "D")
#: Suit symbols, drawn with the DejaVu Sans font that ships with Kivy (Roboto has none).
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def suit_markup(suit: str) -> str:
    """Kivy markup for a suit symbol, red for hearts and diamonds."""
    symbol = f"[font=DejaVuSans]{SUIT_SYMBOLS.get(suit, suit)}[/font]"
    return f"[color=#e85a5a]{symbol}[/color]" if suit in RED_SUITS else symbol


def card_rank(card: str) -> str:
    """ "10H" -> "10"."""
    return card[:-1]


def card_words(card: str | None) -> str:
    """ "QH" -> "Q" and a red heart (Kivy markup); face down or unknown -> "-"."""
    if not card:
        return "-"
    return f"{card_rank(card)}{suit_markup(card[-1])}"


def decision_label(action: Mapping[str, Any], to_act: Any) -> str:
    """Words for one of 7 Seize's listed decisions."""
    kind = action.get("type")
    if kind == "divvy":
        return f"Red {action['red']}  /  Black {action['black']}"
    if kind == "captain":
        return f"{action['captain']} is Captain"
    if kind == "order":
        return " then ".join(action["order"])
    if kind == "quartermaster":
        n = action.get("returned", 0)
        return f"{n} piece{'s' * (n != 1)} returned" + (f" for the {action['for']}" if action.get("for") else "")
    if kind == "strumpet":
        if action.get("choice") == "steal":
            return f"Steal 1 from {action.get('victim')}"
        return "Seize 1 from the stash"
    if kind == "pick":
        n = action.get("pieces", 0)
        return f"{n} piece{'s' * (n != 1)} picked for the {action.get('for', 'Interloper')}"
    return action_label(action, to_act)


def json_key(record: Mapping[str, Any]) -> str:
    """A round record as text, to tell when the rounds so far changed."""
    import json

    return json.dumps(record, sort_keys=True, default=str)


def round_line(record: Mapping[str, Any]) -> str:
    """One finished round in words."""
    gained = ", ".join(f"{k} +{v}" for k, v in record.get("gained", {}).items())
    divvy = record.get("divvy", {})
    return (
        f"Round {record.get('round')}: Captain {record.get('captain')}, "
        f"Red {divvy.get('red')} / Black {divvy.get('black')}; {gained}"
    )


class SeizeScreen(GameScreen):
    """Everything a 7 Seize table needs during the seven rounds."""

    round_text = StringProperty("")
    stash_text = StringProperty("")
    deck_text = StringProperty("")
    seat = StringProperty("")
    rank = StringProperty("")
    revealing = ListProperty([])
    rounds_done = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._reveal_key: Any = None
        self._plotted: Any = None
        super().__init__(**kwargs)

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        phase = d.get("phase", "")
        if (
            phase in ("weighoff", "over")
            and d.get("weighoff") is not None
            and self.manager
            and self.manager.current == self.name
        ):
            from kivy.app import App

            App.get_running_app().go("weighoff", controller=c)
            return
        self.title = str(c.game.TITLE)
        self.prompt = s.prompt
        captain = d.get("captain")
        self.round_text = f"Round {d.get('round')} of {d.get('rounds')}" + (f"   Captain: {captain}" if captain else "")
        stashes = d.get("stashes", {})
        self.stash_text = (
            f"Red stash {stashes.get('red', 0)}   Black stash {stashes.get('black', 0)}   Bag {d.get('bag', 0)}"
        )
        deck = d.get("deck", {})
        nxt = deck.get("next_reshuffle")
        self.deck_text = (
            f"Deck: {deck.get('draw', 0)} to draw, {deck.get('discard', 0)} discarded, "
            f"{len(deck.get('still_out', []))} cards still out"
            + (f"; reshuffle due in round {nxt['round']}" if nxt else "")
        )
        self._fill_stepper(phase)
        self._fill_table(d, s)
        waiting = d.get("waiting") or {}
        self.revealing = list(waiting.get("for", [])) if waiting.get("kind") == "reveal" else []
        # A new reveal (another round or phase) starts with the first player the prompt names;
        # last round's final revealer may still be listed, but is not the one to enter now.
        reveal_key = (d.get("round"), phase)
        if self.seat not in self.revealing or reveal_key != self._reveal_key:
            self.seat = self.revealing[0] if self.revealing else ""
            self.rank = ""
        self._reveal_key = reveal_key
        self._fill_pad()
        self._fill_decisions(waiting)
        self.ids.rounds.text = (
            "\n".join(round_line(r) for r in reversed(d.get("history", []))) or "No round finished yet."
        )
        self._fill_plot(d)

    def _fill_plot(self, d: Mapping[str, Any]) -> None:
        """Each collection's pieces after every round so far (from the engine's round records)."""
        history = list(d.get("history", []))
        self.rounds_done = len(history)
        players = list(d.get("collections", {}))
        key = tuple(json_key(r) for r in history)
        if key == self._plotted:
            return
        self._plotted = key
        chart = self.ids.chart
        if not history:
            chart.plot(None)
            return
        from companion.ui.widgets.plot import line_chart

        totals = dict.fromkeys(players, 0)
        series: dict[str, list[tuple[float, float]]] = {p: [(0.0, 0.0)] for p in players}
        for r in history:
            for p, n in (r.get("gained") or {}).items():
                totals[p] = totals.get(p, 0) + int(n)
            for p in players:
                series[p].append((float(r.get("round", len(series[p]))), float(totals.get(p, 0))))
        chart.title = "Pieces per round"
        chart.plot(line_chart(series, players, xlabel="round", ylabel="pieces", title="Pieces after each round"))

    def _fill_stepper(self, phase: str) -> None:
        row = self.ids.stepper
        if not row.children:
            for key, words in PHASES:
                row.add_widget(Cell(text=words, kind="head", key=f"phase:{key}"))
        for cell in row.children:
            cell.highlight = cell.key == f"phase:{phase}"

    def _fill_table(self, d: Mapping[str, Any], s: Any) -> None:
        cards = d.get("cards", {})
        rows = []
        names = list(d.get("collections", {}))
        for name in names:
            rows.append(
                [
                    name,
                    str(d["collections"][name]),
                    card_words(cards.get("squabble", {}).get(name)) if name in cards.get("squabble", {}) else "",
                    card_words(cards.get("seize", {}).get(name)),
                ]
            )
        acting = d.get("acting")
        marked = [i for i, n in enumerate(names) if n in s.to_act or n == acting or n in s.winners]
        self.ids.table.show(["Player", "Pieces", "Squabble", "Seize"], rows, marked_rows=marked)

    def _reveals(self) -> list[dict[str, Any]]:
        return [a for a in self.controller.legal if a.get("type") == "reveal" and a.get("player") == self.seat]

    def _fill_pad(self) -> None:
        fill_buttons(
            self.ids.seats,
            [
                {"text": n, "value": n, "key": f"seat:{n}", "state": "down" if n == self.seat else "normal"}
                for n in self.revealing
            ],
            self._seat_chip,
        )
        legal_cards = {a["card"] for a in self._reveals()}
        fill_buttons(
            self.ids.ranks,
            [
                {
                    "text": r,
                    "value": r,
                    "key": f"rank:{r}",
                    "state": "down" if r == self.rank else "normal",
                    "disabled": not any(card_rank(c) == r for c in legal_cards),
                }
                for r in RANKS
            ],
            self._rank_chip,
        )
        fill_buttons(
            self.ids.suits,
            [
                {
                    "text": f"{suit_markup(suit)} {words}",
                    "markup": True,
                    "key": f"suit:{suit}",
                    "value": f"{self.rank}{suit}",
                    "disabled": f"{self.rank}{suit}" not in legal_cards,
                }
                for suit, words in SUITS
            ],
            self._suit_button,
        )
        self.ids.pad.shown = bool(self.revealing)

    def _seat_chip(self) -> PToggle:
        chip = PToggle(group=f"seize-seat-{id(self)}", allow_no_selection=False)
        chip.bind(on_release=lambda w: self.pick_seat(w.value))
        return chip

    def _rank_chip(self) -> PToggle:
        chip = PToggle(group=f"seize-rank-{id(self)}")
        chip.bind(on_release=lambda w: self.pick_rank(w.value if w.state == "down" else ""))
        return chip

    def _suit_button(self) -> PButton:
        b = PButton()
        b.bind(on_release=lambda w: self.reveal(w.value))
        return b

    def pick_seat(self, name: str) -> None:
        """Enter the card of ``name`` next."""
        self.seat = name
        self.rank = ""
        self._fill_pad()

    def pick_rank(self, rank: str) -> None:
        """The rank of the card being entered."""
        self.rank = rank
        self._fill_pad()

    def reveal(self, card: str) -> None:
        """Send the listed reveal of ``card`` for the chosen seat."""
        for action in self._reveals():
            if action["card"] == card:
                self.rank = ""
                self.act(action)
                return

    def _fill_decisions(self, waiting: Mapping[str, Any]) -> None:
        c = self.controller
        kinds = ("divvy", "captain", "order", "quartermaster", "strumpet", "pick")
        specs = []
        for action in c.legal:
            kind = action.get("type")
            if kind not in kinds:
                continue
            tail = ",".join(str(v) for k, v in action.items() if k not in ("type", "player"))
            specs.append(
                {
                    "text": decision_label(action, c.summary.to_act),
                    "action": action,
                    "value": None,
                    "key": f"{kind}:{tail}",
                    "role": "normal",
                    "disabled": False,
                }
            )
        if waiting.get("kind") == "weigh":
            specs.append(
                {
                    "text": "Go to the weigh-off",
                    "action": None,
                    "value": "weighoff",
                    "key": "to_weighoff",
                    "role": "primary",
                    "disabled": False,
                }
            )
        fill_buttons(self.ids.decisions, specs, self._decision_button)
        self.ids.over.text = c.summary.prompt if c.summary.over else ""

    def _decision_button(self) -> PButton:
        b = PButton(height=dp(64))
        b.bind(on_release=lambda w: self._to_weighoff() if w.value == "weighoff" else self.act(w.action))
        return b

    def _to_weighoff(self) -> None:
        from kivy.app import App

        App.get_running_app().go("weighoff", controller=self.controller)
