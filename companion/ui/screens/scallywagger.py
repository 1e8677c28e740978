"""The Scallywagger screen: Captains and their crewmates, the standing bid, a bid pad of the
legal raises (face, then quantity), call and Parlay, the reveal counted by the camera or
typed, card draws, every other listed action as a button, and a private peek for a Captain
holding a concealed Adventure card that Purser dealt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.games.scallywagger.bids import are_no_dice, dice_word
from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import dice_view, gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PToggle, fill_buttons
from companion.ui.widgets.peek import PeekView, open_peek, peek_players
from companion.ui.words import action_label

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

#: Actions drawn by the screen's own pads; everything else listed becomes a plain button.
_PADDED = ("bid", "call", "parlay", "reveal", "draw", "confirm", "drop", "add")


def bid_text(bid: Mapping[str, Any] | None) -> str:
    """ "six 1s (Ana)", or "no bid yet"."""
    if not bid:
        return "No bid yet"
    q = int(bid["quantity"])
    words = NUMBER_WORDS[q] if q < len(NUMBER_WORDS) else str(q)
    return f"{words} {bid['face']}s ({bid['player']})"


def chance(dice: int, quantity: int, face: int, wild_ones: bool) -> tuple[float, float] | None:
    """The exact chance, seen from the table (no die known), that at least ``quantity`` of
    ``dice`` count for ``face``, and that exactly that many do (a Parlay); None when it has no
    answer (no dice)."""
    from companion.advisor.odds import OddsError, bid_odds

    try:
        odds = bid_odds(dice, quantity, face, (), wild_ones)
    except OddsError:
        return None
    return float(odds.at_least), float(odds.exact)


def percent(p: float) -> str:
    """ "62 %", "< 1 %", "> 99 %"."""
    if 0 < p < 0.005:
        return "< 1 %"
    if 0.995 < p < 1:
        return "> 99 %"
    return f"{p * 100:.0f} %"


class ScallywaggerScreen(GameScreen):
    """Bidding, challenges and the reveal for Scallywagger."""

    bid_words = StringProperty("")
    bid_odds = StringProperty("")
    #: The reveal is being counted or its dice confirmed: the camera preview shows.
    reveal_shown = BooleanProperty(False)
    #: The die of the reveal being confirmed (-1: none), and what the reader could not read.
    fixing = NumericProperty(-1)
    #: What may be said of that die: a face (``can_confirm``), or that it is no die
    #: (``can_drop``: the camera saw more dice than are on the table).
    can_confirm = BooleanProperty(False)
    can_drop = BooleanProperty(False)
    fix_text = StringProperty("")
    #: The dice the camera missed, which the players add with their faces ("" when none).
    missing_text = StringProperty("")
    unread_text = StringProperty("")
    table_text = StringProperty("")
    face = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._dice = 0
        self._wild = False
        self.peek: PeekView | None = None
        super().__init__(**kwargs)
        self.uses_camera = True

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        self.title = str(c.game.TITLE)
        self.prompt = s.prompt
        self.bid_words = bid_text(d.get("bid"))
        self._dice = int(d.get("dice_on_table", 0) or 0)
        self._wild = bool(c.session.config.get("wild_ones", False))
        bid = d.get("bid")
        odds = chance(self._dice, int(bid["quantity"]), int(bid["face"]), self._wild) if bid else None
        self.bid_odds = (
            (f"{percent(odds[0])} likely true, {percent(odds[1])} exactly right (all {self._dice} dice unseen)")
            if odds
            else ""
        )
        decks = d.get("decks", {})
        self.table_text = (
            f"{d.get('dice_on_table', 0)} dice on the table. Treasure deck "
            f"{decks.get('treasure', {}).get('deck', 0)}, Adventure deck "
            f"{decks.get('adventure', {}).get('deck', 0)}."
        )
        out = set(d.get("out", []))
        rows = []
        for name, crew in s.scores.items():
            cards = len(d.get("treasure", {}).get(name, [])) + int(d.get("adventure_concealed", {}).get(name, 0))
            mark = "token" if name == d.get("token") else ("out" if name in out else "")
            rows.append([name, f"{crew:g}", str(cards), mark])
        marked = [i for i, n in enumerate(s.scores) if n in s.to_act or n in s.winners]
        self.ids.captains.show(["Captain", "Crew", "Cards", ""], rows, marked_rows=marked)
        self.ids.bids.text = "\n".join(bid_text(b) for b in reversed(d.get("bids", []))) or "-"
        self._fill_peeks()
        self._fill_bid_pad()
        self._fill_challenges()
        self._fill_reveal(d)
        self._fill_revealed(d)
        self._fill_others()

    def _fill_peeks(self) -> None:
        """A "Peek" per Captain holding a concealed card (the button names the Captain only)."""
        holders = peek_players(self.controller) if not self.controller.summary.over else []
        specs = [{"text": f"Peek: {p}", "value": p, "key": f"peek:{p}"} for p in holders]
        fill_buttons(self.ids.peeks, specs, self._peek_button)
        self.ids.peek_row.shown = bool(holders)

    def _peek_button(self) -> PButton:
        button = PButton(role="quiet")
        button.bind(on_release=lambda b: self.open_peek(b.value))
        return button

    def open_peek(self, player: str) -> PeekView:
        """Cover the screen and ask to pass the tablet to ``player``, who holds it to see their card."""
        self.close_peek()
        self.peek = open_peek(self.controller, player)
        return self.peek

    def close_peek(self) -> None:
        """Close an open peek (nothing private stays on screen)."""
        if self.peek is not None:
            self.peek.close()
            self.peek = None

    def on_leave(self, *args: Any) -> None:
        self.close_peek()
        super().on_leave(*args)

    def on_controller(self, inst: Any, controller: Any) -> None:
        self.close_peek()  # another game on this screen: a peek at the last one closes
        super().on_controller(inst, controller)

    def _legal(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.controller.legal if a.get("type") == kind]

    def _fill_bid_pad(self) -> None:
        bids = self._legal("bid")
        faces = sorted({int(a["face"]) for a in bids})
        if self.face not in faces:
            self.face = faces[0] if faces else 0
        fill_buttons(
            self.ids.faces,
            [
                {"text": str(f), "value": f, "key": f"face:{f}", "state": "down" if f == self.face else "normal"}
                for f in faces
            ],
            self._face_chip,
        )
        quantities = [a for a in bids if int(a["face"]) == self.face]
        specs = []
        for a in quantities:
            odds = chance(self._dice, int(a["quantity"]), int(a["face"]), self._wild)
            shown = f"\n[size={int(sp(15))}]{percent(odds[0])}[/size]" if odds else ""
            specs.append(
                {
                    "text": f"{a['quantity']} x {a['face']}{shown}",
                    "action": a,
                    "markup": True,
                    "key": f"bid:{a['quantity']}:{a['face']}",
                    "disabled": False,
                }
            )
        fill_buttons(self.ids.quantities, specs, lambda: self.new_action_button(height=dp(72)))
        self.ids.bid_pad.shown = bool(bids)

    def _face_chip(self) -> PToggle:
        chip = PToggle(group=f"scally-face-{id(self)}", allow_no_selection=False, height=dp(64), font_size=dp(30))
        chip.bind(on_release=lambda w: self.pick_face(w.value))
        return chip

    def pick_face(self, face: int) -> None:
        """Show the quantities that may be bid on ``face``."""
        self.face = face
        self._fill_bid_pad()

    def _fill_challenges(self) -> None:
        words = {"call": "Call out the Scallywagger!", "parlay": "Parlay: the bid is exact"}
        specs = []
        for kind in ("call", "parlay"):
            for a in self._legal(kind):
                specs.append(
                    {
                        "text": words[kind] if len(a) <= 2 else action_label(a),
                        "action": a,
                        "key": f"{kind}:{a.get('quantity', '')}:{a.get('face', '')}",
                        "role": "danger",
                        "disabled": False,
                    }
                )
        fill_buttons(self.ids.challenges, specs, lambda: self.new_action_button(height=dp(64)))

    def _fill_reveal(self, d: Mapping[str, Any]) -> None:
        reveals = self._legal("reveal")
        # the preview stays while dice are confirmed or added: its boxes show which it missed
        self.reveal_shown = any("from" in a for a in reveals) or d.get("phase") == "confirm"
        specs = []
        for a in reveals:
            if "from" in a:
                specs.append(
                    {
                        "text": "Count with the camera",
                        "action": a,
                        "key": "reveal:camera",
                        "role": "primary",
                        "disabled": False,
                    }
                )
            elif "count" in a:
                specs.append(
                    {
                        "text": str(a["count"]),
                        "action": a,
                        "key": f"reveal:{a['count']}",
                        "role": "normal",
                        "disabled": False,
                    }
                )
        for a in self._legal("draw"):
            specs.append(
                {
                    "text": f"Draw: {a['deck'].capitalize()}",
                    "action": a,
                    "key": f"draw:{a['deck']}",
                    "role": "primary",
                    "disabled": False,
                }
            )
        fill_buttons(self.ids.reveal, specs, lambda: self.new_action_button(height=dp(60)))

    def _fill_revealed(self, d: Mapping[str, Any]) -> None:
        """The dice of the reveal as read, the unsure ones marked; tapping one confirms it."""
        from companion.ui.widgets.dice import fill_faces, unreadable_count, unreadable_text

        reveal = d.get("reveal") or {}
        values = list(reveal.get("dice") or [])
        unsure = set(reveal.get("unsure") or [])
        dropped = set(reveal.get("dropped") or [])
        if self.fixing not in unsure:
            self.fixing = -1
        specs = [
            {
                "value": v,
                "unsure": i in unsure,
                "selected": i == self.fixing,
                "key": f"reveal:{i}",
                "disabled": i not in unsure,
            }
            for i, v in enumerate(values)
            if i not in dropped
        ]
        fill_faces(self.ids.revealed, specs, lambda f: self.pick_die(int(f.key.split(":")[1])), size=(dp(56), dp(60)))
        history = self.controller.session.history()
        last = history[-1].action.get("detections") if history and reveal.get("source") == "camera" else None
        self.unread_text = unreadable_text(unreadable_count(last)) if reveal else ""
        surplus = int(reveal.get("surplus") or 0)
        self.can_confirm = any(a.get("die") == self.fixing for a in self._legal("confirm"))
        self.can_drop = any(a.get("die") == self.fixing for a in self._legal("drop"))
        extra = f" ({surplus} of those marked ? {are_no_dice(surplus)})" if surplus else ""
        self.fix_text = (
            f"Die {self.fixing + 1}: {values[self.fixing]}?"
            if 0 <= self.fixing < len(values)
            else (f"Tap a die marked ? to say what it shows{extra}." if unsure else "")
        )
        missing = int(reveal.get("missing") or 0) if self._legal("add") else 0
        self.missing_text = (
            f"The camera missed {missing} {dice_word(missing)}: add what "
            f"{'it shows' if missing == 1 else 'each shows, one by one'}."
            if missing
            else ""
        )

    def pick_die(self, index: int) -> None:
        """Choose die ``index`` of the reveal to confirm."""
        self.fixing = index
        self._fill_revealed(self.controller.summary.detail)

    def drop_die(self) -> None:
        """Say the chosen die is no die (the engine's listed drop)."""
        for action in self._legal("drop"):
            if action.get("die") == self.fixing:
                self.fixing = -1
                self.act(action)
                return

    def add_die(self, value: int) -> None:
        """Add a die the camera missed, showing ``value`` (the engine's listed add)."""
        for action in self._legal("add"):
            if action.get("value") == value:
                self.act(action)
                return

    def fix_die(self, value: int) -> None:
        """Confirm the chosen die shows ``value`` (the engine's listed confirm)."""
        for action in self._legal("confirm"):
            if action.get("die") == self.fixing and action.get("value") == value:
                self.fixing = -1
                self.act(action)
                return

    def _fill_others(self) -> None:
        others = [a for a in self.controller.legal if a.get("type") not in _PADDED]
        specs = self.action_specs(others)
        for spec, a in zip(specs, others, strict=True):
            spec["key"] = f"{a['type']}:{a.get('player', '')}:{a.get('card', a.get('die', ''))}"
        fill_buttons(self.ids.others, specs, lambda: self.new_action_button(height=dp(60)))
