"""A deck list entered card by card (name, stars, copies) for Seize: Guilded Treasures, with
the Champion or Guild Master the format keeps outside the deck; the engine checks it.

Starts from the engine's listed example (its cards and extra card), so the form asks only
for what the format needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets.base import PButton, PInput, PLabel, PToggle

STARS = (1, 2, 3, 4)
EXTRA_CARDS = {"champion": "Champion", "guild_master": "Guild Master"}


class CardRow(BoxLayout):
    """One line of the deck list: name, stars (1-4) and copies; ``row`` numbers it."""

    row = ObjectProperty(0)
    stars = ObjectProperty(1)

    def __init__(self, name: str = "", stars: int = 1, count: int | None = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stars = stars
        self.name_input = PInput(text=name, hint_text="card name", key=f"deck:{self.row}:name")
        self.add_widget(self.name_input)
        group = f"deck-stars-{id(self)}"
        for n in STARS:
            chip = PToggle(
                text="*" * n,
                group=group,
                allow_no_selection=False,
                size_hint_x=None,
                width=dp(62),
                key=f"deck:{self.row}:stars={n}",
                state="down" if n == stars else "normal",
            )
            chip.bind(on_release=lambda _w, n=n: setattr(self, "stars", n))
            self.add_widget(chip)
        self.count_input: PInput | None = None
        if count is not None:
            self.count_input = PInput(
                text=str(count),
                input_filter="int",
                halign="center",
                size_hint_x=None,
                width=dp(80),
                key=f"deck:{self.row}:count",
            )
            self.add_widget(self.count_input)

    def card(self) -> dict[str, Any]:
        """The card as the engine reads it."""
        data: dict[str, Any] = {"name": self.name_input.text.strip(), "stars": int(self.stars)}
        if self.count_input is not None:
            try:
                data["count"] = int(self.count_input.text or 0)
            except ValueError:
                data["count"] = 0
        return data


class DeckForm(BoxLayout):
    """The deck list of ``action`` (the listed ``deck`` action), card by card."""

    action = ObjectProperty(None)
    total_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: list[CardRow] = []
        self.extra: tuple[str, CardRow] | None = None
        action = dict(self.action or {})
        self.add_widget(PLabel(text="One line per card: its name, its stars and how many copies.", role="muted"))
        self.list_box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        self.list_box.bind(minimum_height=self.list_box.setter("height"))
        self.add_widget(self.list_box)
        self.total_label = PLabel(text="", size_hint_y=1)
        # the listed action is an example: its names are hints, its counts say the deck's size
        for card in action.get("cards") or [{"name": "", "stars": 1, "count": 1}]:
            row = self.add_card("", int(card.get("stars", 1)), int(card.get("count", 1)))
            row.name_input.hint_text = f"card name, e.g. {card.get('name', 'Deckhand')}"
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(6))
        more = PButton(text="Add a card", key="deck:add", role="quiet")
        more.bind(on_release=lambda *_: self.add_card("", 1, 1))
        row.add_widget(more)
        row.add_widget(self.total_label)
        self.add_widget(row)
        for key, words in EXTRA_CARDS.items():
            if isinstance(action.get(key), Mapping):
                self.add_widget(PLabel(text=f"{words} (kept outside the deck)", role="heading"))
                extra = CardRow(
                    "", int(action[key].get("stars", 3)), None, row=key, size_hint_y=None, height=dp(60), spacing=dp(4)
                )
                extra.name_input.hint_text = f"the {words}'s name"
                self.extra = (key, extra)
                self.add_widget(extra)
        self.update_total()

    def add_card(self, name: str, stars: int, count: int) -> CardRow:
        """Add a line to the list."""
        row = CardRow(name, stars, count, row=len(self.rows), size_hint_y=None, height=dp(60), spacing=dp(4))
        if row.count_input is not None:
            row.count_input.bind(text=lambda *_: self.update_total())
        self.rows.append(row)
        self.list_box.add_widget(row)
        self.update_total()
        return row

    def update_total(self) -> None:
        """Count the cards listed."""
        total = sum(r.card().get("count", 0) for r in self.rows)
        self.total_label.text = f"{total} card{'s' * (total != 1)} listed"

    def filled(self) -> tuple[str, dict[str, Any]]:
        """('', the deck action) or (what is missing, {})."""
        cards = [r.card() for r in self.rows if r.card()["name"]]
        if not cards:
            return "Name at least one card.", {}
        filled = {k: v for k, v in dict(self.action).items() if k not in ("cards", *EXTRA_CARDS)}
        filled["cards"] = cards
        if self.extra is not None:
            key, row = self.extra
            card = row.card()
            if not card["name"]:
                return f"Name the {EXTRA_CARDS[key]}.", {}
            filled[key] = card
        return "", filled
