"""Whole games of 7 Seize through the real `purser` command line, ending in a weigh-off
on the built-in simulated balance with known piece weights.

The scripts give each round's revealed cards and decisions, and the collections the
rulebook says each round must leave. The weigh-off places each collection's pieces on
the simulated pans, takes a stable weighing in this process and sends it to `purser play`,
so the journal holds the balance's own readings.
"""

from __future__ import annotations

import pytest

from companion.scale import open_scale
from companion.session import TableSession
from companion.store import Store

FIVE = ("Ana", "Ben", "Cy", "Dee", "Eve")
FIVE_ROUNDS = [
    {
        "squabble": {"Ana": "7D", "Ben": "7S", "Cy": "3H", "Dee": "JS", "Eve": "2C"},
        "divvy": ("Ben", 3),
        "seize": {"Ana": "AH", "Ben": "9C", "Cy": "9D", "Dee": "KS", "Eve": "5C"},
        "decide": [
            {"type": "quartermaster", "player": "Dee", "returned": 4},
            {"type": "order", "player": "Ben", "order": ["Cy", "Ben"]},
        ],
        "after": {"Ana": 1, "Ben": 2, "Cy": 2, "Dee": 0, "Eve": 2},
    },
    {
        "squabble": {"Ana": "10H", "Ben": "10C", "Cy": "4D", "Dee": "QD", "Eve": "8H"},
        "captain": {"type": "captain", "player": "Ben", "captain": "Ana"},
        "divvy": ("Ana", 5),
        "seize": {"Ana": "QH", "Ben": "JC", "Cy": "6H", "Dee": "8D", "Eve": "4S"},
        "decide": [{"type": "strumpet", "player": "Ana", "choice": "steal", "victim": "Cy"}],
        "after": {"Ana": 2, "Ben": 4, "Cy": 3, "Dee": 3, "Eve": 2},
    },
    {
        "squabble": {"Ana": "2D", "Ben": "5D", "Cy": "10S", "Dee": "3C", "Eve": "KH"},
        "divvy": ("Cy", 1),
        "seize": {"Ana": "AS", "Ben": "2H", "Cy": "7C", "Dee": "AD", "Eve": "3S"},
        "decide": [{"type": "order", "player": "Cy", "order": ["Dee", "Ana"]}],
        "after": {"Ana": 3, "Ben": 4, "Cy": 6, "Dee": 4, "Eve": 4},
    },
    {
        "squabble": {"Ana": "6S", "Ben": "9H", "Cy": "6C", "Dee": "9S", "Eve": "JD"},
        "captain": {"type": "captain", "player": "Cy", "captain": "Dee"},
        "divvy": ("Dee", 4),
        "seize": {"Ana": "KD", "Ben": "10D", "Cy": "QC", "Dee": "5H", "Eve": "8C"},
        "decide": [
            {"type": "quartermaster", "player": "Ana", "returned": 4},
            {"type": "strumpet", "player": "Cy", "choice": "seize"},
        ],
        "after": {"Ana": 3, "Ben": 6, "Cy": 7, "Dee": 6, "Eve": 6},
    },
    {
        "squabble": {"Ana": "8S", "Ben": "2S", "Cy": "4H", "Dee": "4C", "Eve": "10S"},
        "divvy": ("Eve", 2),
        "seize": {"Ana": "JH", "Ben": "QS", "Cy": "KC", "Dee": "7H", "Eve": "7S"},
        "decide": [
            {"type": "quartermaster", "player": "Cy", "returned": 5},
            {"type": "strumpet", "player": "Ben", "choice": "steal", "victim": "Cy"},
            {"type": "order", "player": "Eve", "order": ["Eve", "Dee"]},
        ],
        "after": {"Ana": 5, "Ben": 7, "Cy": 6, "Dee": 6, "Eve": 11},
    },
    {
        "squabble": {"Ana": "3D", "Ben": "3S", "Cy": "2H", "Dee": "AC", "Eve": "3H"},
        "captain": {"type": "captain", "player": "Eve", "captain": "Eve"},
        "divvy": ("Eve", 6),
        "seize": {"Ana": "10C", "Ben": "9D", "Cy": "9H", "Dee": "QD", "Eve": "2D"},
        "decide": [
            {"type": "strumpet", "player": "Dee", "choice": "steal", "victim": "Eve"},
            {"type": "order", "player": "Eve", "order": ["Ben", "Cy"]},
        ],
        "after": {"Ana": 6, "Ben": 9, "Cy": 8, "Dee": 7, "Eve": 12},
    },
    {
        "squabble": {"Ana": "5S", "Ben": "6D", "Cy": "9C", "Dee": "9S", "Eve": "4D"},
        "captain": {"type": "captain", "player": "Eve", "captain": "Cy"},
        "divvy": ("Cy", 3),
        "seize": {"Ana": "AS", "Ben": "KH", "Cy": "JS", "Dee": "5D", "Eve": "QC"},
        "decide": [
            {"type": "quartermaster", "player": "Ben", "returned": 3},
            {"type": "strumpet", "player": "Eve", "choice": "seize"},
        ],
        "after": {"Ana": 7, "Ben": 9, "Cy": 10, "Dee": 10, "Eve": 13},
    },
]
TWO = ("Ana", "Ben")
PICK_B = {"type": "pick", "player": "Ben", "for": "Interloper"}
PICK_A = {"type": "pick", "player": "Ana", "for": "Interloper"}
TWO_ROUNDS = [
    {
        "squabble": {"Ana": "9S", "Ben": "8S"},
        "divvy": ("Ana", 3),
        "seize": {"Interloper": "AH", "Ana": "2C", "Ben": "3C"},
        "decide": [PICK_B],
        "after": {"Ana": 2, "Ben": 2, "Interloper": 3},
    },
    {
        "squabble": {"Ana": "4H", "Ben": "10D"},
        "divvy": ("Ben", 4),
        "seize": {"Interloper": "QC", "Ana": "QD", "Ben": "7H"},
        "decide": [
            {"type": "order", "player": "Ben", "order": ["Ana", "Interloper"]},
            {"type": "strumpet", "player": "Ana", "choice": "steal", "victim": "Ben"},
            {"type": "strumpet", "player": "Ana", "for": "Interloper", "choice": "seize"},
        ],
        "after": {"Ana": 5, "Ben": 5, "Interloper": 4},
    },
    {
        "squabble": {"Ana": "10H", "Ben": "10C"},
        "captain": {"type": "captain", "player": "Ben", "captain": "Ana"},
        "divvy": ("Ana", 2),
        "seize": {"Interloper": "9C", "Ana": "KS", "Ben": "6S"},
        "decide": [{"type": "quartermaster", "player": "Ana", "returned": 5}, PICK_B, PICK_B, PICK_B],
        "after": {"Ana": 7, "Ben": 7, "Interloper": 7},
    },
    {
        "squabble": {"Ana": "3D", "Ben": "5C"},
        "divvy": ("Ben", 5),
        "seize": {"Interloper": "KD", "Ana": "JH", "Ben": "2H"},
        "decide": [{"type": "quartermaster", "player": "Ana", "for": "Interloper", "returned": 5}],
        "after": {"Ana": 9, "Ben": 10, "Interloper": 9},
    },
    {
        "squabble": {"Ana": "7S", "Ben": "7D"},
        "captain": {"type": "captain", "player": "Ben", "captain": "Ben"},
        "divvy": ("Ben", 1),
        "seize": {"Interloper": "10S", "Ana": "4S", "Ben": "AC"},
        "decide": [PICK_A, PICK_A, PICK_A],
        "after": {"Ana": 11, "Ben": 12, "Interloper": 12},
    },
    {
        "squabble": {"Ana": "8H", "Ben": "2S"},
        "divvy": ("Ana", 6),
        "seize": {"Interloper": "5H", "Ana": "5D", "Ben": "QH"},
        "decide": [
            {"type": "strumpet", "player": "Ben", "choice": "steal", "victim": "Interloper"},
            {"type": "order", "player": "Ana", "order": ["Ana", "Interloper"]},
            PICK_B,
            PICK_B,
            PICK_B,
        ],
        "after": {"Ana": 14, "Ben": 14, "Interloper": 14},
    },
    {
        "squabble": {"Ana": "6D", "Ben": "9D"},
        "divvy": ("Ben", 3),
        "seize": {"Interloper": "JC", "Ana": "8C", "Ben": "3H"},
        "decide": [dict(PICK_A, pieces=2)],
        "after": {"Ana": 16, "Ben": 17, "Interloper": 16},
    },
]


def round_actions(script: dict) -> list[dict]:
    """One round's actions in table order: squabble, tie, divvy, seize reveals, decisions."""
    actions = [{"type": "reveal", "player": p, "card": c} for p, c in script["squabble"].items()]
    if "captain" in script:
        actions.append(script["captain"])
    captain, red = script["divvy"]
    actions.append({"type": "divvy", "player": captain, "red": red, "black": 7 - red})
    actions += [{"type": "reveal", "player": p, "card": c} for p, c in script["seize"].items()]
    return actions + script["decide"]


def play_rounds(purser, sid: int, rounds: list[dict]) -> list[dict]:
    """Play every round in one `purser play`; returns the events."""
    actions = [a for r in rounds for a in round_actions(r)]
    results = purser.play_ok(sid, actions)
    return [e for r in results for e in r["events"]]


def weigh_off(
    purser, sid: int, due: dict, scale, pieces: dict[str, list[float]], shed: dict[str, list[float]]
) -> list[dict]:
    """Weigh whatever is due on the simulated balance until the weigh-off is over.

    ``due`` maps who is due on the pan now to their pan; the events of each batch say who
    is due next (a tie or a new contest). ``pieces`` are each collection's piece weights
    (grams); in a tie-break a player takes off the next piece listed in ``shed``.
    Returns the events.
    """
    events: list[dict] = []
    removed = dict.fromkeys(pieces, 0)
    for _ in range(20):
        actions = []
        for name, pan in due.items():
            on_pan = list(pieces[name])
            for piece in shed[name][: removed[name]]:
                on_pan.remove(piece)
            scale.clear(pan)
            scale.place(on_pan, channel=pan)
            weighing = scale.weigh_stable(timeout=30, channel=pan)
            scale.clear(pan)
            assert weighing.channel == pan and len(weighing.raw_counts) == weighing.samples > 0
            assert weighing.grams == pytest.approx(sum(on_pan), abs=5 * weighing.uncertainty_g + 0.05)
            actions.append({"type": "weigh", "player": name, "weighing": weighing.to_json()})
        caused = [e for r in purser.play_ok(sid, actions) for e in r["events"]]
        events += caused
        due = {}
        for e in caused:
            if e["type"] == "pieces_back":
                removed[e["player"]] = 0
            elif e["type"] == "tie":
                removed.update(e["removed"])
                due = dict(e["pans"])
            elif e["type"] == "contest":
                due = dict(e["pans"])
            elif e["type"] == "weighoff_won":
                return events
    raise AssertionError("the weigh-off did not end")


def check_rounds(state: dict, rounds: list[dict]) -> None:
    history = state["summary"]["detail"]["history"]
    assert len(history) == 7
    totals = dict.fromkeys(rounds[0]["after"], 0)
    for script, record in zip(rounds, history, strict=False):
        for name, gained in record["gained"].items():
            totals[name] += gained
        assert totals == script["after"], f"round {record['round']}"
        assert record["seize"] == {**dict.fromkeys(totals, None), **script["seize"]}


def test_five_player_game_to_a_near_tie_on_one_pan(purser):
    sid = purser.new("seven-seize", FIVE, seed=7)
    events = play_rounds(purser, sid, FIVE_ROUNDS)
    reshuffles = [e for e in events if e["type"] == "reshuffle"]
    assert [e["cards"] for e in reshuffles] == [40]  # after round 4: every revealed card so far
    state = purser.show(sid)
    check_rounds(state, FIVE_ROUNDS)
    detail = state["summary"]["detail"]
    assert detail["phase"] == "weighoff" and detail["bag"] == 0 and detail["booty_total"] == 49
    assert detail["collections"] == FIVE_ROUNDS[-1]["after"]
    assert state["legal_actions"][0] == {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0}

    # Dee (10 pieces) and Eve (13) weigh exactly the same: a near-tie the scale cannot split.
    pieces = {
        "Ana": [9.0, 9.5, 10.0, 10.5, 11.0, 9.0, 11.0],
        "Ben": [8.0, 9.0, 10.0, 11.0, 12.0, 10.0, 10.0, 10.0, 10.0],
        "Cy": [10.0] * 10,
        "Dee": [12.0] + [13.0] * 8 + [14.0],
        "Eve": [4.0] + [10.5] * 12,
    }
    assert sum(map(len, pieces.values())) == 49 and sum(pieces["Dee"]) == sum(pieces["Eve"]) == 130.0
    shed = {"Dee": [12.0], "Eve": [4.0], "Ana": [], "Ben": [], "Cy": []}
    due = dict.fromkeys(detail["weighoff"]["waiting"], 0)
    assert list(due) == list(FIVE)
    with open_scale("sim://?clock=virtual&seed=7") as scale:
        events = weigh_off(purser, sid, due, scale, pieces, shed)

    ties = [e for e in events if e["type"] == "tie"]
    assert len(ties) == 1 and set(ties[0]["pair"]) == {"Dee", "Eve"}
    assert "Both remove one piece of booty and re-weigh" in ties[0]["text"]
    assert [e["player"] for e in events if e["type"] == "eliminated"] == ["Ana", "Ben", "Cy", "Dee"]
    final = purser.show(sid, history=200)
    summary = final["summary"]
    assert summary["over"] and summary["winners"] == ["Eve"]
    weighoff = summary["detail"]["weighoff"]
    assert [r["player"] for r in weighoff["ranking"]][:2] == ["Eve", "Dee"]
    assert [r["place"] for r in weighoff["ranking"]] == [1, 2, 3, 4, 5]
    last = weighoff["contests"][-1]
    assert len(last["bouts"]) == 2 and last["bouts"][0]["outcome"] == "tie"
    assert last["bouts"][1]["removed"] == {"Dee": 1, "Eve": 1}
    for name, reading in weighoff["weights"].items():
        assert reading["source"] == "scale" and reading["value"] == pytest.approx(sum(pieces[name]), abs=0.2)

    # The journal keeps the balance's raw readings and calibration with every weighing.
    weighs = [h["action"] for h in final["history"] if h["action"]["type"] == "weigh"]
    assert len(weighs) == 7
    assert all(a["weighing"]["raw_counts"] and a["weighing"]["calibration"] for a in weighs)


def test_two_player_interloper_game_on_two_pans(purser):
    sid = purser.new("seven-seize", TWO, rules={"balance": "two_pans"}, seed=3)
    opening = play_rounds(purser, sid, TWO_ROUNDS)
    assert [e["pair"] for e in opening if e["type"] == "contest"] == [["Ana", "Ben"]]
    state = purser.show(sid)
    check_rounds(state, TWO_ROUNDS)
    detail = state["summary"]["detail"]
    assert detail["deck"]["reshuffles"] == 0 and detail["deck"]["draw"] == 46 - 7 - 6 * 4
    assert state["legal_actions"] == [
        {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0},
        {"type": "weigh", "player": "Ben", "from": "scale", "channel": 1},
    ]

    # Ana (16 pieces) and Ben (17) are level; the Interloper (16) is lighter.
    pieces = {
        "Ana": [5.0] + [10.0] * 15,
        "Ben": [15.0] + [8.75] * 16,
        "Interloper": [9.375] * 16,
    }
    assert sum(pieces["Ana"]) == sum(pieces["Ben"]) == 155.0 and sum(pieces["Interloper"]) == 150.0
    shed = {"Ana": [5.0], "Ben": [15.0], "Interloper": []}
    assert detail["weighoff"]["pans_for"] == {"Ana": 0, "Ben": 1}
    with open_scale("sim://?clock=virtual&seed=3&channels=2") as scale:
        events = weigh_off(purser, sid, detail["weighoff"]["pans_for"], scale, pieces, shed)

    assert [e["pair"] for e in events if e["type"] == "contest"] == [["Ana", "Interloper"]]
    assert [e["pair"] for e in events if e["type"] == "tie"] == [["Ana", "Ben"]]
    assert [e["player"] for e in events if e["type"] == "pieces_back"] == ["Ana", "Ben"]
    assert [e["player"] for e in events if e["type"] == "eliminated"] == ["Ben", "Interloper"]
    summary = purser.show(sid)["summary"]
    assert summary["over"] and summary["winners"] == ["Ana"]
    bouts = summary["detail"]["weighoff"]["contests"][0]["bouts"]
    assert [b["readings"]["Ana"]["channel"] for b in bouts] == [0, 0]
    assert [b["readings"]["Ben"]["channel"] for b in bouts] == [1, 1]


def test_weighing_through_the_session_from_the_scale(tmp_path):
    """`"from": "scale"` resolved by the session's own simulated balance, then applied."""
    url = "sim://?clock=virtual&seed=5&channels=2&pieces=10,12.5,9&pieces1=11,11"
    with Store.open(tmp_path / "purser.db") as store:
        session = TableSession.create(
            store,
            "seven-seize",
            ["Ana", "Ben"],
            {"balance": "two_pans", "interloper_weighs": False},
            seed=2,
            hardware={"scale": url},
        )
        try:
            while session.state.phase != "weighoff":
                session.apply(session.legal_actions()[0])
            assert session.legal_actions() == [
                {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0},
                {"type": "weigh", "player": "Ben", "from": "scale", "channel": 1},
            ]
            for action in session.legal_actions():
                concrete = session.resolve(action)
                assert "from" not in concrete and concrete["weighing"]["channel"] == action["channel"]
                session.apply(concrete)
            summary = session.summary()
            assert summary.over and summary.winners == ("Ana",)  # 31.5 g against 22 g
            weights = summary.detail["weighoff"]["weights"]
            assert weights["Ana"]["value"] == pytest.approx(31.5, abs=0.2)
            assert weights["Ben"]["value"] == pytest.approx(22.0, abs=0.2)
        finally:
            session.close()
        stored = [e.action for e in TableSession(store, session.id).history() if e.action["type"] == "weigh"]
        assert len(stored) == 2 and all(a["weighing"]["raw_counts"] for a in stored)
