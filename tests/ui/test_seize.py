"""7 Seize by taps: a round on the card pad, the seventh round, then the weigh-off on the
simulated balance, with a near-tie settled by the remove-one-piece rule."""

from __future__ import annotations

import random

from tests.ui import kivy_driver as kd

SCALE_URL = "sim://?seed=4"
PLAYERS = ("Ana", "Ben", "Cy")


def _collections(screen) -> dict[str, int]:
    table = screen.ids.table
    out = {}
    for row, name in enumerate(PLAYERS):
        assert table.cell(row, 0).text == name
        out[name] = int(table.cell(row, 1).text)
    return out


def _play_round_by_taps(app, screen) -> None:
    """Reveal every card on the pad and take every decision by its button, until the round ends."""
    controller = app.controller
    start = controller.summary.detail["round"]
    for _ in range(80):
        d = controller.summary.detail
        if d["round"] != start or d["phase"] in ("weighoff", "over"):
            return
        if d["waiting"]["kind"] == "reveal":
            seat = screen.seat
            card = next(a["card"] for a in controller.legal if a["player"] == seat)
            kd.tap_key(screen, f"rank:{card[:-1]}")
            kd.tap_key(screen, f"suit:{card[-1]}")
            assert controller.message_kind != "error", controller.message
        else:
            kd.tap(kd.find_all(screen.ids.decisions, cls="PButton")[0])
    raise AssertionError("the round did not end")


def test_a_round_of_seven_seize_on_the_card_pad(app, shots):
    app.start_game("seven-seize", PLAYERS, {}, seed=11)
    kd.pump()
    screen = app.manager.current_screen
    assert app.manager.current == "seize"
    assert screen.ids.stepper.children[-1].highlight  # Squabble is the phase shown first
    d = app.controller.summary.detail
    first = next(a["card"] for a in app.controller.legal if a["player"] == "Ana")
    kd.tap_key(screen, f"rank:{first[:-1]}")
    # Only the suits of cards still out are offered for that rank.
    offered = {b.key[-1] for b in kd.find_all(screen.ids.suits, cls="PButton") if not b.disabled}
    assert offered == {
        a["card"][-1] for a in app.controller.legal if a["player"] == "Ana" and a["card"][:-1] == first[:-1]
    }
    kd.tap_key(screen, f"suit:{first[-1]}")
    assert screen.ids.table.cell(0, 2).text.startswith(first[:-1])
    assert "Ben, Cy still to reveal" in screen.ids.prompt.text
    kd.shot(app, shots, "seize-squabble")
    _play_round_by_taps(app, screen)
    d = app.controller.summary.detail
    assert d["round"] == 2
    assert sum(_collections(screen).values()) == 7  # seven pieces a round, all seized or swabbed
    assert "Round 1: Captain" in screen.ids.rounds.text
    assert f"Bag {d['bag']}" in screen.ids.stashes.text and d["bag"] == 42


def test_round_seven_then_the_weigh_off_with_a_near_tie(app, shots):
    app.start_game("seven-seize", PLAYERS, {}, seed=11)
    controller = app.controller
    rng = random.Random(3)
    session = controller.session
    while session.summary().detail["round"] < 7:  # rounds 2-6: the same journal, without the taps
        session.apply(rng.choice(session.legal_actions()))
    controller.refresh()
    kd.pump(2)
    screen = app.manager.current_screen
    _play_round_by_taps(app, screen)
    assert app.manager.current == "weighoff"
    weigh = app.manager.current_screen
    kd.shot(app, shots, "weighoff-start")
    scale = app.hardware.scale  # the simulator: put each collection on its pan
    kd.wait_until(lambda: app.hardware.grams is not None, what="a live reading")

    def put_on(grams: float, player: str) -> None:
        scale.clear(0)
        scale.place(grams, 0)
        kd.tap_key(weigh, f"weigh:{player}")
        kd.wait_until(lambda: not controller.busy, 60, f"{player}'s weighing")
        assert controller.message_kind != "error", controller.message

    for player, grams in (("Ana", 150.00), ("Ben", 150.02), ("Cy", 100.0)):
        put_on(grams, player)
    assert "No clear winner" in weigh.ids.prompt.text and "remove one piece" in weigh.ids.prompt.text
    assert "Cy" in weigh.ids.bracket.text and "Cy out" in weigh.ids.bracket.text
    kd.shot(app, shots, "weighoff-tie")
    waiting = controller.summary.detail["weighoff"]["waiting"]
    assert set(waiting) == {"Ana", "Ben"}
    for player in waiting:
        put_on({"Ana": 146.0, "Ben": 140.0}[player], player)
    assert controller.summary.over
    assert app.manager.current == "over" and "Ana wins!" in app.manager.current_screen.winner
    kd.tap_key(app.root, "over:game")
    assert app.manager.current == "weighoff"
    assert weigh.ids.result.text == "Ana wins!"
    from kivy.metrics import sp

    assert weigh.ids.result.font_size >= sp(56) - 1  # the winner, big enough to read across the table
    assert weigh.ids.ranking.cell(0, 1).text == "Ana"
    assert "1 tie-break" in weigh.ids.bracket.text
    # every row of the ranking is on screen, under the fixed-height message bar
    bar = kd.find(weigh, cls="MessageBar")
    last = weigh.ids.ranking.cell(2, 1)
    assert last.to_window(*last.pos)[1] >= bar.to_window(*bar.pos)[1] + bar.height - 1 or kd.outside_parent(weigh) == []
    assert weigh.ids.chart.texture is not None  # the zoomed chart with whiskers
    kd.shot(app, shots, "weighoff-won")
    # Finished: one tap cannot change it; reopening asks first.
    assert not kd.visible(kd.find(app.root, key="undo"))
    assert not controller.undo() and controller.summary.over
    kd.tap_key(app.root, "reopen")
    kd.tap(kd.find_open(key="confirm:yes"))
    kd.tap_key(app.root, "undo")
    assert not controller.summary.over and weigh.ids.result.text == ""


def test_typed_grams_when_there_is_no_scale_reading(app):
    app.start_game("seven-seize", PLAYERS, {}, seed=12)
    controller = app.controller
    session, rng = controller.session, random.Random(2)
    while session.summary().detail["phase"] != "weighoff":  # to the weigh-off, without taps
        session.apply(rng.choice(session.legal_actions()))
    controller.refresh()
    kd.pump(2)
    weigh = app.go("weighoff", controller=controller)
    kd.pump(2)
    waiting = controller.summary.detail["weighoff"]["waiting"]
    assert waiting
    player = waiting[0]
    kd.type_text(weigh.ids.typed, "abc")
    kd.tap_key(weigh, f"typed:{player}")
    assert controller.message_kind == "error"
    kd.type_text(weigh.ids.typed, "151.5")
    kd.tap_key(weigh, f"typed:{player}")
    assert controller.message_kind == "info", controller.message
    assert "151.5" in controller.message


def test_rounds_two_to_seven_start_with_the_player_the_prompt_names(app):
    app.start_game("seven-seize", PLAYERS, {}, seed=11)
    controller = app.controller
    screen = app.manager.current_screen
    rng = random.Random(5)
    session = controller.session
    checked = 0
    last_round = 1
    while checked < 3 and not session.summary().over:
        d = session.summary().detail
        if d["round"] != last_round and d["waiting"]["kind"] == "reveal":
            last_round = d["round"]
            controller.refresh()
            kd.pump(2)
            first = d["waiting"]["for"][0]
            assert screen.seat == first, f"round {d['round']}: {screen.seat} selected, the prompt names {first} first"
            assert screen.ids.prompt.text.find(first) >= 0
            checked += 1
        legal = session.legal_actions()
        session.apply(rng.choice(legal))
        controller.refresh()
        kd.pump(1)
    assert checked == 3


def test_the_message_bar_keeps_its_height(app):
    app.start_game("seven-seize", PLAYERS, {}, seed=11)
    controller = app.controller
    kd.pump(2)
    bar = kd.find(app.manager.current_screen, cls="MessageBar")
    before = bar.height
    controller.say(" ".join(["Ana seized 2 booty from the Red stash."] * 12), "info")  # a round's worth of news
    kd.pump(3)
    assert bar.height == before
    assert kd.outside_parent(app.manager.current_screen) == []
