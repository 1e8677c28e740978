"""Seize: Guilded Treasures by taps: the roll for first, hands kept, Acquire, mercenaries
entered on the stat form, a status added from a board, a Vault emptied by a bounty, the
result, undo; then the match clock running out, refused values, a reopened match and the
hand limit holding the turn; mercenaries placed and moved by tapping the battlefield."""

from __future__ import annotations

import pytest

from tests.ui import kivy_driver as kd

#: A small Vault so that one destroyed mercenary's bounty ends the match.
RULES = {"vault": 3}


def _tap_action(screen, **fields) -> None:
    """Tap the one button sending the listed action whose fields include ``fields``."""

    def wanted(action) -> bool:
        return action is not None and all(action.get(k) == v for k, v in fields.items())

    found = kd.find_all(screen, cls="PButton", action=wanted)
    assert len(found) == 1, f"expected one button for {fields}, found {[b.action for b in found]}"
    kd.tap(found[0])


def _next(screen, player: str, times: int = 1) -> None:
    for _ in range(times):
        kd.tap_key(screen, f"flow:next_phase:{player}")


def _fill_merc(screen, name: str, **stats: int) -> None:
    """On the open mercenary form: type the name, step each stat to ``stats`` with - and +, send."""
    _enter_merc(screen, name, **stats)
    kd.tap_key(screen, "form:send")


def _enter_merc(screen, name: str, **stats: int) -> None:
    """On the open mercenary form: type the name, step each stat to ``stats`` with - and +."""
    kd.pump(4)  # the form has just opened: let the column settle around it
    kd.type_text(kd.find(screen, key="form:name"), name)
    for stat, value in stats.items():
        box = kd.find(screen, key=f"form:{stat}")
        while int(box.text) < value:
            kd.tap_key(screen, f"form:{stat}:plus")
        while int(box.text) > value:
            kd.tap_key(screen, f"form:{stat}:minus")


def _plain(text: str) -> str:
    """Screen text with its no-break spaces as plain ones."""
    return text.replace("\u00a0", " ")


def _board(screen, player: str):
    return kd.find(screen, key=f"board:{player}")


def _merc(screen, merc_id: str):
    return kd.find(screen, key=f"merc:{merc_id}")


def _phase(screen) -> str:
    lit = [c.key for c in screen.ids.stepper.children if c.highlight]
    return lit[0] if lit else ""


def test_a_short_match_by_taps_to_a_vault_emptied_by_a_bounty(app, shots):
    app.start_game("guilded", ["Ana", "Ben"], RULES, seed=4)
    kd.pump()
    assert app.manager.current == "guilded"
    screen = app.manager.current_screen
    c = app.controller
    assert "Roll a d6 each" in screen.ids.prompt.text
    assert _board(screen, "Ana").vault_text == "Vault 3"

    # -- set-up: the rolls are chosen in two steps (who, then the die), then who goes first, hands
    kd.tap_key(screen, "subject:player:Ana")
    assert screen.step_text.startswith("Ana: roll")
    rolls = [b.action for b in kd.find_all(screen.ids.actions, cls="PButton")]
    assert rolls == [a for a in c.legal if a["type"] == "roll" and a["player"] == "Ana"]
    _tap_action(screen, type="roll", player="Ana", value=5)
    kd.tap_key(screen, "subject:player:Ben")
    _tap_action(screen, type="roll", player="Ben", value=2)
    assert "Rolled 5" in _board(screen, "Ana").counts_text
    _tap_action(screen, type="go_first", first="Ana")
    _tap_action(screen, type="keep", player="Ben")
    _tap_action(screen, type="keep", player="Ana")
    assert _phase(screen) == "phase:beginning"
    assert screen.turn_text.startswith("Turn 1: Ana")
    assert screen.clock_text == "Match time: 50 min left"  # started by the first timed action
    assert not kd.find_all(screen, key="flow:next_phase:Ben"), "only the turn player moves the turn on"

    # -- turn 1, Ana: acquire one card (the only counts offered keep her Vault above 0), a Deckhand
    _next(screen, "Ana", 2)
    assert _phase(screen) == "phase:acquire"
    offered = sorted(b.action["cards"] for b in kd.find_all(screen.ids.actions, cls="PButton"))
    assert offered == [0, 1, 2]
    _tap_action(screen, type="acquire", cards=1)
    assert _board(screen, "Ana").vault_text == "Vault 2"
    assert "-1 Acquire 1 card (Vault 2)" in _board(screen, "Ana").log_text
    _next(screen, "Ana")
    assert _phase(screen) == "phase:rally" and screen.group == "play"
    cursor = c.session.cursor
    _tap_action(screen, type="play_merc", player="Ana")
    assert screen.form_action is not None and c.session.cursor == cursor  # the form sends nothing yet
    _fill_merc(screen, "Deckhand", health=6, bounty=1, melee=3, move=2)
    deckhand = _merc(screen, "m1")
    assert (deckhand.title, deckhand.health_text) == ("Deckhand (m1)", "6/6")
    assert "Melee 3" in _plain(deckhand.stats_text) and "Bounty 1" in _plain(deckhand.stats_text)
    assert screen.form_action is None
    kd.tap_key(screen, "flow:end_turn:Ana")
    assert _phase(screen) == "phase:end"
    _next(screen, "Ana")
    assert screen.turn_text.startswith("Turn 2: Ben")

    # -- turn 2, Ben: a Raider worth his whole Vault; poison on Ana's Deckhand from her board
    _next(screen, "Ben", 3)
    _tap_action(screen, type="play_merc", player="Ben")
    _fill_merc(screen, "Raider", health=3, bounty=3, melee=2, move=3)
    assert _merc(screen, "m2").health_text == "3/3"
    kd.tap(_merc(screen, "m1"))
    assert screen.group == "effects" and tuple(screen.subject) == ("target", "m1")
    _tap_action(screen, type="add_status", status="poison")
    kd.tap_key(screen, "form:count:plus")
    kd.tap_key(screen, "form:send")
    assert "Poison 2" in _plain(_merc(screen, "m1").status_text)
    kd.tap(_merc(screen, "m1"))
    assert "Poison: damage dealt to it is increased" in c.message
    kd.shot(app, shots, "guilded-boards")
    kd.tap_key(screen, "flow:end_turn:Ben")
    _next(screen, "Ben")

    # -- turn 3, Ana: the Deckhand attacks; the Raider falls and its bounty empties Ben's Vault
    _next(screen, "Ana", 5)
    assert _phase(screen) == "phase:attack" and screen.group == "attack"
    assert "can attack" in _plain(_merc(screen, "m1").status_text)
    before = c.session.cursor
    _tap_action(screen, type="attack", merc="m1", target="m2", **{"with": "melee"})
    assert c.summary.over
    assert app.manager.current == "over"  # the result first
    kd.tap_key(app.root, "over:game")
    assert not kd.find_all(screen, key="merc:m2")
    assert _board(screen, "Ben").vault_text == "Vault 0"
    assert _board(screen, "Ben").out_text == "Out: the Vault is empty"
    assert screen.result_text.splitlines() == ["Ana won the match.", "Game 1 to Ana (the Vault is empty)."]
    assert "Ana won the match." in kd.texts(screen)
    assert not kd.find_all(screen.ids.actions, cls="PButton") and not kd.find_all(screen.ids.flow, cls="PButton")
    kd.shot(app, shots, "guilded-over")

    # -- reopen (asked first), undo the attack: the Raider and Ben's Vault come back, the match is on again
    kd.tap_key(app.root, "reopen")
    kd.tap(kd.find_open(key="confirm:yes"))
    kd.tap_key(app.root, "undo")
    assert c.session.cursor == before
    assert _merc(screen, "m2").health_text == "3/3"
    assert _board(screen, "Ben").vault_text == "Vault 3" and _board(screen, "Ben").out_text == ""
    assert screen.result_text == "" and _phase(screen) == "phase:attack"
    assert kd.find_all(screen, cls="PButton", action=lambda a: a is not None and a.get("type") == "attack")


def test_the_match_clock_runs_out_on_the_screen(app, monkeypatch):
    screen = _to_rally(app, {}, seed=4)  # a match of its own, under way
    c = app.controller
    kd.tap(kd.find_all(screen, cls="PButton", key=lambda k: k.startswith("flow:next_phase:"))[0])  # a timed move
    assert app.manager.current == "guilded" and not c.summary.over
    last = c.summary.detail["clock"]["last_at"]
    monkeypatch.setattr(screen, "now", lambda: last + 47 * 60)  # the tablet's clock, 47 minutes on
    screen.tick()
    assert screen.clock_text == "Match time: 3 min left"
    cursor = c.session.cursor
    monkeypatch.setattr(screen, "now", lambda: last + 51 * 60)
    screen.tick()
    assert c.session.cursor == cursor + 1, "the time was sent to the engine once"
    assert c.session.history()[-1].action["type"] == "clock"
    assert screen.clock_text == "Match time is up"
    assert "Time is up" in screen.ids.reminders.text
    screen.tick()
    assert c.session.cursor == cursor + 1


def _to_rally(app, rules: dict, seed: int):
    """A new match moved on (without taps) to Ana's first Rally phase; returns the screen."""
    app.start_game("guilded", ["Ana", "Ben"], rules, seed=seed)
    session = app.controller.session
    for action in (
        {"type": "roll", "player": "Ana", "value": 6},
        {"type": "roll", "player": "Ben", "value": 1},
        {"type": "go_first", "player": "Ana", "first": "Ana"},
        {"type": "keep", "player": "Ana"},
        {"type": "keep", "player": "Ben"},
    ):
        session.apply(action)
    while session.summary().detail["phase"] != "rally":
        session.apply({"type": "next_phase", "player": "Ana"})
    app.controller.refresh()
    kd.pump(3)
    return app.manager.current_screen


def test_values_the_rules_refuse_are_explained_and_change_nothing(app):
    screen = _to_rally(app, {}, seed=5)
    c = app.controller
    cursor = c.session.cursor
    _tap_action(screen, type="play_merc", player="Ana")
    kd.pump(4)
    kd.type_text(kd.find(screen, key="form:health"), "0")
    kd.tap_key(screen, "form:send")
    assert c.message_kind == "error" and '"health" must be at least 1' in c.message
    assert c.session.cursor == cursor and screen.form_action is not None  # the form stays, as entered
    assert kd.find(screen, key="form:health").text == "0"
    kd.tap_key(screen, "step_back")
    assert screen.form_action is None and c.session.cursor == cursor
    kd.tap_key(screen, "group:typed")
    kd.type_text(screen.ids.typed, '{"type": "heal", "target": "m9", "amount": 2}')
    kd.tap_key(screen, "send_typed")
    assert c.message_kind == "error" and "no mercenary 'm9'" in c.message and c.session.cursor == cursor
    kd.type_text(screen.ids.typed, "heal m9")
    kd.tap_key(screen, "send_typed")
    assert "not a JSON action" in c.message and c.session.cursor == cursor


def test_a_reopened_match_shows_where_it_stood(app):
    screen = _to_rally(app, {"vault": 12}, seed=6)
    _tap_action(screen, type="play_merc", player="Ana")
    _fill_merc(screen, "Gunner", health=4, bounty=2, ranged=2)
    _tap_action(screen, type="play_treasure", face_down=True)
    shown = (
        _board(screen, "Ana").vault_text,
        _board(screen, "Ana").counts_text,
        _merc(screen, "m1").stats_text,
        _phase(screen),
        screen.turn_text,
    )
    session_id = app.controller.session.id
    app.go_home()
    kd.pump(2)
    app.open_session(session_id)
    kd.pump(3)
    assert app.manager.current == "guilded"
    screen = app.manager.current_screen
    assert (
        _board(screen, "Ana").vault_text,
        _board(screen, "Ana").counts_text,
        _merc(screen, "m1").stats_text,
        _phase(screen),
        screen.turn_text,
    ) == shown
    assert shown[0] == "Vault 12" and "Warchest 1" in shown[1]


def test_the_hand_limit_holds_the_turn_until_the_discard(app):
    screen = _to_rally(app, {}, seed=7)
    c = app.controller
    c.act({"type": "counts", "player": "Ana", "hand": 11})
    kd.tap_key(screen, "flow:end_turn:Ana")
    assert _phase(screen) == "phase:end"
    assert "Ana holds 11 cards: discard 2 now" in screen.ids.reminders.text
    assert not kd.find_all(screen, key="flow:next_phase:Ana"), "the turn cannot pass over the hand limit"
    assert screen.group == "cards"  # what holds the turn is offered first
    _tap_action(screen, type="discard", player="Ana", cards=2)
    assert kd.find(screen, key="form:cards").text == "2"  # the engine's count, to confirm
    kd.tap_key(screen, "form:send")
    assert screen.ids.reminders.text == ""
    kd.tap_key(screen, "flow:next_phase:Ana")
    assert screen.turn_text.startswith("Turn 2: Ben")


# -- the battlefield ---------------------------------------------------------------------------------


def _tile(screen, side: str, row: int, col: int):
    return kd.find(screen, key=f"tile:{side}:{row}:{col}")


def _lit(screen) -> set[tuple[str, int, int]]:
    return {tuple(t.tile) for t in kd.find_all(screen, cls="TileLabel", mode="lit")}


def _where(c, merc_id: str):
    m = next(m for m in c.summary.detail["mercenaries"] if m["id"] == merc_id)
    return m["tile"] and (m["tile"]["side"], m["tile"]["row"], m["tile"]["col"])


def test_a_mercenary_placed_and_moved_by_tapping_the_battlefield(app, shots):
    screen = _to_rally(app, {}, seed=8)
    c = app.controller
    assert not _lit(screen), "nothing to pick on the battlefield before an action asks for a tile"
    _tap_action(screen, type="play_merc", player="Ana")
    _enter_merc(screen, "Deckhand", health=6, melee=3, move=2)
    # the engine's entry tiles: Ana's Guild Hall and the row before it, nothing else
    assert _lit(screen) == {("Ana", r, col) for r in (1, 2) for col in (1, 2, 3, 4)}
    assert "it enters there" in screen.ids.field_hint.text
    cursor = c.session.cursor
    kd.tap(_tile(screen, "Ben", 1, 1))  # not lit: nothing happens, the form stays open
    kd.tap(_tile(screen, "Ana", 3, 2))
    assert c.session.cursor == cursor and screen.form_action is not None
    kd.tap(_tile(screen, "Ana", 2, 2))
    assert c.session.cursor == cursor + 1 and screen.form_action is None
    assert _where(c, "m1") == ("Ana", 2, 2)
    assert _tile(screen, "Ana", 2, 2).text == "Deckhand\n6/6"
    assert "Ana's side, row 2, column 2" in _plain(_merc(screen, "m1").stats_text)
    assert not _lit(screen)

    # -- First Movement: its reach (2 spaces, across the middle into Ben's front row) lights up
    kd.tap_key(screen, "flow:next_phase:Ana")
    assert _phase(screen) == "phase:first_movement" and screen.group == "move"
    offered = {
        (t["side"], t["row"], t["col"])
        for ch in c.summary.detail["tile_choices"]
        if ch["type"] == "move"
        for t in ch["tiles"]
    }
    assert _lit(screen) == offered and ("Ben", 3, 3) in offered and ("Ben", 2, 2) not in offered
    kd.shot(app, shots, "guilded-battlefield")
    placed = c.session.cursor
    kd.tap(_tile(screen, "Ben", 2, 2))
    assert c.session.cursor == placed
    kd.tap(_tile(screen, "Ben", 3, 3))
    assert c.session.cursor == placed + 1
    assert c.session.history()[-1].action["to"] == {"side": "Ben", "row": 3, "col": 3}
    assert _where(c, "m1") == ("Ben", 3, 3)
    assert _tile(screen, "Ben", 3, 3).text == "Deckhand\n6/6" and _tile(screen, "Ana", 2, 2).text == ""
    assert "Move 0 of 2" in _plain(_merc(screen, "m1").stats_text)
    assert not _lit(screen), "no movement left: nothing to tap"

    # -- undo puts it back where the screen and the engine both had it
    kd.tap_key(app.root, "undo")
    assert c.session.cursor == placed and _where(c, "m1") == ("Ana", 2, 2)
    assert _tile(screen, "Ana", 2, 2).text == "Deckhand\n6/6" and _tile(screen, "Ben", 3, 3).text == ""
    assert ("Ben", 3, 3) in _lit(screen)


def test_fog_and_its_long_tile_list_are_picked_on_the_battlefield(app):
    screen = _to_rally(app, {}, seed=9)
    c = app.controller
    kd.tap_key(screen, "group:effects")
    kd.tap_key(screen, "subject:type:fog")
    assert "tap a lit tile" in screen.step_text
    assert not kd.find_all(screen.ids.actions, cls="PButton"), "no button per tile"
    assert len(_lit(screen)) == 24
    cursor = c.session.cursor
    kd.tap(_tile(screen, "Ben", 2, 4))
    assert c.session.cursor == cursor + 1 and c.summary.detail["fog"] == [{"side": "Ben", "row": 2, "col": 4}]
    assert _tile(screen, "Ben", 2, 4).text == "Fog"


# -- button words ----------------------------------------------------------------------------------

_NAMES = {"m1": "Deckhand (m1)", "m3": "Raider (m3)"}


@pytest.mark.parametrize(
    "action, leave_out, words",
    [
        ({"type": "exit", "player": "Ana", "merc": "m3"}, (), "Raider (m3) exits play"),
        ({"type": "exit", "player": "Ana", "merc": "m3"}, ("merc",), "Exit play"),
        ({"type": "move", "player": "Ana", "merc": "m1", "spaces": 1}, (), "Move Deckhand (m1) 1 space"),
        ({"type": "move", "player": "Ana", "merc": "m1", "spaces": 2}, ("merc",), "Move 2 spaces"),
        (
            {"type": "move", "player": "Ana", "merc": "m1", "to": {"side": "Ben", "row": 3, "col": 2}},
            (),
            "Move Deckhand (m1) to Ben's side, row 3, column 2",
        ),
        (
            {"type": "attack", "player": "Ana", "merc": "m1", "target": "m3", "with": "melee", "coin": "lost"},
            (),
            "Deckhand (m1) attacks Raider (m3) (melee) (coin lost)",
        ),
        ({"type": "plunder", "player": "Ana", "merc": "m1"}, (), "Deckhand (m1) plunders the Guild Hall"),
        (
            {"type": "unequip", "player": "Ana", "merc": "m1", "treasure": "Cutlass"},
            (),
            "Unequip Cutlass from Deckhand (m1)",
        ),
        ({"type": "ability", "player": "Ana", "kind": "active", "merc": "m3"}, (), "Raider (m3): active ability"),
        ({"type": "play_merc", "player": "Ana", "guild_master": True}, (), "Play the Guild Master"),
        ({"type": "play_treasure", "player": "Ana", "face_down": True}, (), "Play a mercenary face down as a treasure"),
        ({}, (), None),  # nothing to say: the screen's usual words
        ({"type": "heal", "target": "m1", "amount": 1}, (), None),
    ],
)
def test_a_mercenary_s_actions_read_as_players_say_them(action, leave_out, words):
    from companion.ui.screens.guilded_actions import phrase
    from companion.ui.screens.guilded_board import tile_words

    assert phrase(action, lambda m: _NAMES.get(m, m), tile_words, leave_out) == words


def test_a_deck_list_is_entered_card_by_card_and_the_roll_says_who_rolls(app):
    app.start_game("guilded", ["Ana", "Ben"], {"format": "arena"}, seed=2)
    kd.pump(2)
    screen = app.manager.current_screen
    c = app.controller
    screen.pick_group("setup")
    kd.pump(1)
    if kd.find_all(screen, key="subject:player:Ana"):
        kd.tap_key(screen, "subject:player:Ana")
    words = {b.text for b in kd.find_all(screen, cls="PButton") if b.action and b.action.get("type") == "roll"}
    assert "Let Purser roll the d6" in words and "Rolled a 6" in words  # no bare "Roll" beside "Roll (value n)"
    screen.pick_group("setup")
    kd.pump(1)
    deck = next(
        b
        for b in kd.find_all(screen, cls="PButton")
        if b.action and b.action.get("type") == "deck" and b.action["player"] == "Ana"
    )
    assert "{" not in deck.text
    kd.tap(deck)
    form = kd.find(screen, cls="DeckForm")
    assert not kd.find_all(screen, key="typed") or not kd.visible(kd.find(screen, key="typed"))
    kd.type_text(kd.find(form, key="deck:0:name"), "Deckhand")
    kd.type_text(kd.find(form, key="deck:0:count"), "20")
    kd.tap_key(form, "deck:add")
    kd.type_text(kd.find(form, key="deck:1:name"), "Sea Witch")
    kd.tap_key(form, "deck:1:stars=2")
    kd.type_text(kd.find(form, key="deck:1:count"), "10")
    kd.type_text(kd.find(form, key="deck:champion:name"), "Kraken")
    assert "30 cards listed" in form.total_label.text
    kd.tap_key(screen, "form:send")
    assert c.message_kind != "error", c.message
    last = c.session.history()[-1].action
    assert last["cards"] == [
        {"name": "Deckhand", "stars": 1, "count": 20},
        {"name": "Sea Witch", "stars": 2, "count": 10},
    ]
    assert last["champion"] == {"name": "Kraken", "stars": 3}
