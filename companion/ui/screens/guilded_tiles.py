"""The battlefield part of the Seize: Guilded Treasures screen: which tiles light up for the
action at hand and what tapping one does. The tiles are the engine's ``tile_choices``; the
screen only picks which kind of action they are for.

:class:`TileOffers` is mixed into :class:`~companion.ui.screens.guilded.GuildedScreen`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.ui.screens.guilded_field import LIT, PICK, TileKey, tile_key


class TileOffers:
    """What each lit tile of the battlefield does (a mixin of the screen: it uses the screen's
    ``act`` and the actions panel's ``send_form``)."""

    controller: Any
    ids: Any
    _names: dict[str, str]
    _offer: dict[TileKey, tuple[Any, ...]]
    # the screen's properties and the actions panel's parts the battlefield uses
    subject: Any
    form_action: Any
    mover: str

    if TYPE_CHECKING:  # declared only: the real ones come from the screen's other parts

        def act(self, action: Mapping[str, Any]) -> bool: ...  # the screen's
        def send_form(self, extra: Mapping[str, Any] | None = None) -> None: ...  # the panel's

    # -- the battlefield ------------------------------------------------------------------------------

    def _fill_field(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        d = c.summary.detail
        self._offer, self.field_text = self._tile_offer(d)
        modes = {k: (PICK if o[0] == "pick" else LIT) for k, o in self._offer.items()}
        self.ids.field.show(d, modes)

    def _tile_offer(self, d: Mapping[str, Any]) -> tuple[dict[TileKey, tuple[Any, ...]], str]:
        """What each tile offered now does, and the words saying so. The tiles are the engine's
        ``tile_choices``; the screen only picks which kind of action they are for."""
        choices = d.get("tile_choices", [])
        if self.controller.summary.over:
            return {}, ""

        def choice(kind: str, **who: Any) -> Mapping[str, Any] | None:
            return next(
                (
                    ch
                    for ch in choices
                    if ch["type"] == kind and all(ch.get(k) == v for k, v in who.items() if v is not None)
                ),
                None,
            )

        form = self.form_action
        if form is not None:
            ch = choice(str(form.get("type")), player=form.get("player"))
            if ch is None:
                return {}, ""
            offer: dict[TileKey, tuple[Any, ...]] = {tile_key(t): ("form", ch["field"], dict(t)) for t in ch["tiles"]}
            return offer, "Tap a lit tile: it enters there (Send leaves it off the battlefield)."
        subject = tuple(self.subject) if self.subject is not None else None
        for kind, words in (
            ("fog", "Tap a lit tile to cover it with fog."),
            ("pillar", "Tap a lit tile to place a pillar there."),
        ):
            if subject == ("type", kind) or (kind == "pillar" and d.get("stage") == "pillars"):
                listed = {
                    tile_key(a["tile"]): a
                    for a in self.controller.legal
                    if a.get("type") == kind and isinstance(a.get("tile"), Mapping)
                }
                offer = {}
                for ch in choices:
                    if ch["type"] == kind:
                        offer.update(
                            {tile_key(t): ("send", listed[tile_key(t)]) for t in ch["tiles"] if tile_key(t) in listed}
                        )
                return offer, words if offer else ""
        # in a Movement phase the battlefield offers the moves whatever kind of action is shown
        return self._move_offer(d, [ch for ch in choices if ch["type"] == "move"])

    def _move_offer(
        self, d: Mapping[str, Any], movers: list[Mapping[str, Any]]
    ) -> tuple[dict[TileKey, tuple[Any, ...]], str]:
        by_merc = {ch["merc"]: ch for ch in movers}
        if not by_merc:
            return {}, ""
        mover = self.mover or ""
        if mover not in by_merc and self.subject is not None and next(iter(self.subject)) == "merc":
            mover = tuple(self.subject)[1]
        if mover not in by_merc and len(by_merc) == 1:
            mover = next(iter(by_merc))
        where = {m["id"]: m.get("tile") for m in d.get("mercenaries", [])}
        offer: dict[TileKey, tuple[Any, ...]] = {
            tile_key(where[m]): ("pick", m) for m in by_merc if where.get(m) and m != mover
        }
        if mover not in by_merc:
            return offer, "Tap a lit mercenary to see where it can move."
        ch = by_merc[mover]
        for t in ch["tiles"]:
            offer[tile_key(t)] = ("send", {"type": "move", "player": ch["player"], "merc": mover, "to": dict(t)})
        others = " (or tap another lit mercenary)" if len(by_merc) > 1 else ""
        return offer, f"Tap a lit tile to move {self._names.get(mover, mover)} there{others}."

    def tap_tile(self, key: TileKey) -> None:
        """A lit tile of the battlefield was tapped: send its action, or choose who moves."""
        offer = self._offer.get(tuple(key))  # type: ignore[arg-type]
        if offer is None:
            return
        if offer[0] == "pick":
            self.mover = offer[1]
            self._fill_field()
        elif offer[0] == "form":
            self.send_form({offer[1]: offer[2]})
        else:
            self.act(offer[1])
