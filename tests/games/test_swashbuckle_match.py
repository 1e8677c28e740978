"""A whole 3-player Swashbuckle match played through `purser play`, totals checked by hand:
a roll-off, a Curse (forgotten, then reminded), Hornswaggle, two Piracies, bonus
Swashbuckles, a scuttle and an etiquette penalty. Then the titles it earns and what they do
to the next match."""

from __future__ import annotations

from companion.session.table import TableSession
from companion.store import Store


def roll(player, dice, keep=None, **more):
    action = {"type": "roll", "player": player, "dice": dice, **more}
    if keep is not None:
        action["keep"] = keep
    return action


def score(player, box, **more):
    return {"type": "score", "player": player, "box": box, **more}


def turn(player, dice, box):
    return [roll(player, dice), score(player, box)]


# Seating Ana, Ben, Cy. Roll-off: Ana 5, Ben 5 (tied: both count 0), Cy 2 -> Cy starts,
# then Ana, then Ben. Each list is one player's 16 turns in order.
CY = [
    turn("Cy", [6, 6, 6, 6, 6], "swashbuckle"),  # 50
    turn("Cy", [6, 6, 6, 6, 6], "sixes"),  # 30 + X
    [
        roll("Cy", [1, 2, 3, 4, 5]),
        score("Cy", "piracy"),
        roll("Cy", [6, 6, 5, 5, 4]),
        {"type": "pillage", "player": "Cy", "target": "Ana"},
    ],  # 26 from Ana
    turn("Cy", [5, 5, 5, 2, 2], "full_boat"),  # 25
    turn("Cy", [5, 5, 5, 5, 1], "fives"),  # 20
    turn("Cy", [4, 4, 4, 4, 2], "fours"),  # 16
    turn("Cy", [3, 3, 3, 3, 6], "threes"),  # 12
    turn("Cy", [2, 2, 2, 2, 1], "twos"),  # 8
    turn("Cy", [1, 1, 1, 1, 1], "aces_high"),  # 40 + X
    turn("Cy", [6, 6, 6, 5, 4], "three_alike"),  # 27
    turn("Cy", [6, 6, 6, 6, 5], "four_alike"),  # 29
    turn("Cy", [2, 3, 4, 5, 5], "succession_4"),  # 30
    turn("Cy", [2, 3, 4, 5, 6], "succession_5"),  # 40
    turn("Cy", [1, 1, 2, 2, 2], "pieces_of_8"),  # 30
    turn("Cy", [6, 6, 5, 5, 3], "flotsam"),  # 25
    turn("Cy", [1, 1, 1, 1, 2], "ones"),  # 4
]
ANA = [
    [*turn("Ana", [1, 1, 1, 3, 3], "full_boat"), {"type": "curse", "player": "Ana", "target": "Ben"}],  # 25
    [
        roll("Ana", [6, 6, 2, 3, 1]),
        roll("Ana", [6, 4, 1], keep=[6, 6]),
        roll("Ana", [6, 2], keep=[6, 6, 6]),
        roll("Ana", [6], keep=[6, 6, 6, 6], hornswaggle=True),
        score("Ana", "swashbuckle"),
    ],  # 50, -15
    turn("Ana", [4, 4, 4, 4, 4], "fours"),  # 20 + X
    turn("Ana", [3, 3, 3, 1, 2], "threes"),  # 9
    turn("Ana", [5, 5, 5, 1, 2], "fives"),  # 15
    turn("Ana", [6, 6, 6, 2, 1], "sixes"),  # 18
    turn("Ana", [2, 2, 2, 6, 6], "twos"),  # 6
    turn("Ana", [1, 1, 1, 5, 6], "ones"),  # 3
    turn("Ana", [5, 5, 5, 6, 6], "three_alike"),  # 27
    turn("Ana", [3, 3, 3, 3, 2], "four_alike"),  # 14
    turn("Ana", [1, 2, 3, 4, 6], "succession_4"),  # 30
    turn("Ana", [1, 2, 3, 4, 5], "succession_5"),  # 40
    turn("Ana", [1, 1, 1, 1, 5], "aces_high"),  # 40
    turn("Ana", [2, 4, 6, 6, 3], "flotsam"),  # 21
    turn("Ana", [2, 3, 4, 6, 6], "piracy"),  # nothing scores: scuttled, 0
    turn("Ana", [1, 1, 2, 2, 2], "pieces_of_8"),  # 30
]
BEN = [
    [
        roll("Ben", [4, 4, 4, 2, 5]),  # cursed, but rolled five dice
        {"type": "remind", "player": "Cy", "remove": 5},  # reminded: Ana's pick, the 5, goes
        roll("Ben", [4], keep=[4, 4, 4]),
        score("Ben", "four_alike"),
    ],  # 4 4 4 4 cursed: 16 x 2 = 32
    [
        roll("Ben", [2, 3, 4, 5, 6]),
        score("Ben", "piracy"),
        roll("Ben", [3, 3, 4, 4, 5]),
        {"type": "pillage", "player": "Ben", "target": "Cy"},
    ],  # 19 from Cy
    turn("Ben", [1, 1, 1, 2, 2], "full_boat"),  # 25
    turn("Ben", [6, 6, 6, 1, 2], "sixes"),  # 18
    turn("Ben", [5, 5, 1, 2, 3], "fives"),  # 10
    turn("Ben", [4, 4, 1, 2, 6], "fours"),  # 8
    turn("Ben", [3, 3, 1, 2, 6], "threes"),  # 6
    turn("Ben", [2, 2, 1, 5, 6], "twos"),  # 4
    turn("Ben", [1, 5, 5, 6, 6], "ones"),  # 1
    turn("Ben", [6, 6, 6, 5, 5], "three_alike"),  # 28
    turn("Ben", [1, 2, 3, 4, 6], "succession_4"),  # 30
    turn("Ben", [2, 3, 4, 5, 6], "succession_5"),  # 40
    turn("Ben", [1, 1, 1, 1, 4], "aces_high"),  # 40
    turn("Ben", [1, 1, 1, 1, 4], "pieces_of_8"),  # 30
    turn("Ben", [5, 5, 6, 6, 6], "flotsam"),  # 28
    turn("Ben", [3, 3, 3, 3, 3], "swashbuckle"),  # 50 (his first: no X)
]

# The totals, by hand:
#
# |                          | Cy                       | Ana                       | Ben                        |
# |--------------------------|--------------------------|---------------------------|----------------------------|
# | Ones..Sixes              | 4+8+12+16+20+30 = 90     | 3+6+9+20+15+18 = 71       | 1+4+6+8+10+18 = 47         |
# | Blimey (> 67)            | 45                       | 45                        | 0                          |
# | Crow's Nest Tally        | 135                      | 116                       | 47                         |
# | 3A 4A AH FB S4 S5 P8 Fl  | 27+29+40+25+30+40+30+25  | 27+14+40+25+30+40+30+21   | 28+32+40+25+30+40+30+28    |
# |                          | = 246                    | = 227                     | = 253                      |
# | Piracy                   | 26                       | 0 (scuttled)              | 19                         |
# | Swashbuckle              | 50                       | 50                        | 50                         |
# | Swashbuckle Bonus Tally  | 2 X = 100                | 1 X = 50                  | 0                          |
# | Smooth sailing           | 10                       | 0 (a scuttle)             | 10                         |
# | Pillaged                 | -19 (by Ben)             | -26 (by Cy)               | 0                          |
# | Hornswaggle              | 0                        | -15                       | 0                          |
# | Bilge Tally              | 246+26+50+100+10-19=413  | 227+0+50+50+0-26-15=286   | 253+19+50+0+10+0=332       |
# | Total Plunder            | 548                      | 402                       | 379                        |
# | etiquette penalty        |                          |                           | -1                         |
# | match score              | 548                      | 402                       | 378                        |
EXPECTED = {"Cy": 548, "Ana": 402, "Ben": 378}


def script():
    actions = [
        {"type": "roll_off", "player": "Ana", "dice": [5]},
        {"type": "roll_off", "player": "Ben", "dice": [5]},
        {"type": "roll_off", "player": "Cy", "dice": [2]},
    ]
    for i in range(16):
        for player_turns in (CY, ANA, BEN):
            actions += player_turns[i]
        if i == 5:
            actions.append({"type": "etiquette", "player": "Ben"})
    return actions


def test_a_three_player_match_through_purser_play(purser):
    sid = purser.new("swashbuckle", ["Ana", "Ben", "Cy"], {"etiquette_penalty": "true"}, seed=3)
    actions = script()
    results = purser.play_ok(sid, actions)
    words = " ".join(e["text"] for r in results for e in r["events"])
    assert "Cy starts with 2 (tied 5 count 0)" in words
    assert "Ben is cursed but rolled five dice" in words and "Ana takes a 5 out of play" in words
    assert "Cy scores 26 in Piracy and pillages Ana for 26" in words
    assert "Ben scores 19 in Piracy and pillages Cy for 19" in words
    assert words.count("marks an X in Swashbuckle Bonus") == 3
    assert "Ana Hornswaggles an extra roll (-15)" in words and "Ana scuttles Piracy" in words
    assert results[-1]["prompt"] == "Match over: Cy wins with 548 plunder."

    shown = purser.show(sid)
    summary = shown["summary"]
    assert summary["over"] and summary["winners"] == ["Cy"]
    assert summary["scores"] == EXPECTED
    pirates = summary["detail"]["pirates"]
    cy, ana, ben = (pirates[p]["columns"][0] for p in ("Cy", "Ana", "Ben"))
    assert (cy["crows_nest_tally"], cy["bilge_tally"], cy["swashbuckle_bonus_tally"]) == (135, 413, 100)
    assert (ana["crows_nest_tally"], ana["bilge_tally"], ana["hornswaggle"], ana["pillaged"]) == (116, 286, -15, -26)
    assert (ben["crows_nest_tally"], ben["bilge_tally"], ben["smooth_sailing"]) == (47, 332, 10)
    assert pirates["Ana"]["curse"] == "Ben" and pirates["Ben"]["penalties"] == -1
    assert summary["detail"]["monikers"] == {"Ana": "Captain", "Ben": "Captain", "Cy": "Captain"}

    # Only one Captain across matches: Cy's 548 keeps it, the others are First Mates.
    with Store.open(purser.db) as store:
        titles = {p.name: p.profile.get("titles", {}).get("swashbuckle") for p in store.players()}
        assert titles == {"Ana": "First Mate", "Ben": "First Mate", "Cy": "Captain"}
        # the Captain starts the next match, with no roll-off
        nxt = TableSession.create(store, "swashbuckle", ["Ana", "Ben", "Cy"], seed=1)
        assert nxt.config["captain"] == "Cy" and nxt.summary().to_act == ("Cy",)
        # undoing the last action unfinishes the match: its titles go with it, and come back on redo
        first = TableSession(store, sid)
        first.undo()
        assert all("titles" not in p.profile for p in store.players())
        first.redo()
        assert store.player("Cy").profile["titles"] == {"swashbuckle": "Captain"}


def _solo_davy_jones_match(store: Store, name: str) -> TableSession:
    """A one-pirate match in which ``name`` becomes Davy Jones on the first turn."""
    session = TableSession.create(store, "swashbuckle", [name], seed=1)
    for action in (
        {"type": "roll", "player": name, "dice": [1, 2, 3, 4, 5]},
        {"type": "score", "player": name, "box": "piracy"},
        {"type": "roll", "player": name, "dice": [6, 6, 6, 1, 2]},
        {"type": "roll", "player": name, "keep": [6, 6, 6], "dice": [6, 6], "hornswaggle": True},
    ):
        session.apply(action)
    while not session.summary().over:
        session.apply({"type": "roll", "player": name, "dice": [1, 1, 2, 3, 5]})
        session.apply(next(a for a in session.legal_actions() if a["type"] == "score"))
    return session


def test_davy_jones_sticks_to_the_profile_the_standings_and_the_next_match(tmp_path):
    with Store.open(tmp_path / "purser.db") as store:
        first = _solo_davy_jones_match(store, "Ana")
        summary = first.summary()
        assert summary.detail["davy_jones"] == "Ana"
        assert summary.detail["standings"][0]["shown_as"] == "Ana (Davy Jones)"
        assert summary.prompt.startswith("Match over: Ana (Davy Jones) wins")
        profile = store.player("Ana").profile
        assert profile["swashbuckle"]["pirate_name"] == "Davy Jones"
        assert profile["titles"]["swashbuckle"].endswith("Davy Jones")

        nxt = TableSession.create(store, "swashbuckle", ["Ben", "Ana"], seed=2)
        assert nxt.config["davy_jones"] == "Ana"
        detail = nxt.summary().detail
        assert detail["davy_jones"] == "Ana" and detail["pirates"]["Ana"]["pirate_name"] == "Davy Jones"

        # a new Davy Jones rises: the original must choose another pirate name
        _solo_davy_jones_match(store, "Cy")
        assert store.player("Cy").profile["swashbuckle"]["pirate_name"] == "Davy Jones"
        ana = store.player("Ana").profile["swashbuckle"]
        assert ana["pirate_name"] is None and ana["must_rename"] is True
        assert TableSession.create(store, "swashbuckle", ["Ana", "Ben"], seed=3).config["davy_jones"] == ""
