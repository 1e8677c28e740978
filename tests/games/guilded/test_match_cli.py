"""A scripted Standard 1v1 match through the real `purser play`, checked against hand-computed figures.

Seven turns: Acquire costs, equipment, Poison and Bleed ticking at End phases, Frost cutting
movement and lifting after First Movement, Burn hitting at the start of the Attack phase,
one-use defence, bounties, plunder, the hand limit, and Ben losing when a Bleed tick
destroys his last mercenary and its bounty empties his Vault.
"""

from __future__ import annotations

import pytest

T0 = 1_718_000_000


def hall(side: str, row: int, col: int) -> dict:
    return {"side": side, "row": row, "col": col}


def np(player: str, **extra) -> dict:
    return {"type": "next_phase", "player": player, **extra}


def merc(detail: dict, merc_id: str) -> dict | None:
    return next((m for m in detail["mercenaries"] if m["id"] == merc_id), None)


def counts(show: dict, player: str) -> tuple[int, int, int]:
    p = show["summary"]["detail"]["players"][player]
    return p["vault"], p["hand"], p["deck"]


def types(results: list[dict]) -> list[str]:
    return [e["type"] for r in results for e in r.get("events", [])]


@pytest.mark.slow
def test_standard_match_of_seven_turns(purser):
    sid = purser.new("guilded", ["Ana", "Ben"], seed=7)

    # -- set-up: Ana rolls higher and goes first; Ben mulligans once --------------------------
    purser.play_ok(
        sid,
        [
            {"type": "roll", "player": "Ana", "value": 5, "at": T0},
            {"type": "roll", "player": "Ben", "value": 2},
            {"type": "go_first", "player": "Ana", "first": "Ana"},
            {"type": "mulligan", "player": "Ben"},
            {"type": "keep", "player": "Ben"},
            {"type": "keep", "player": "Ana"},
        ],
    )
    show = purser.show(sid)
    assert counts(show, "Ana") == (30, 7, 33) and counts(show, "Ben") == (30, 7, 33)
    assert show["summary"]["detail"]["phase"] == "beginning" and show["summary"]["to_act"] == ["Ana"]

    # -- turn 1, Ana: acquire 2, a Deckhand with a helm, a Gunner --------------------------------
    purser.play_ok(
        sid,
        [
            np("Ana"),
            np("Ana"),
            {"type": "acquire", "player": "Ana", "cards": 2},
            np("Ana"),
            {
                "type": "play_merc",
                "player": "Ana",
                "name": "Deckhand",
                "health": 6,
                "bounty": 2,
                "armour": 1,
                "melee": 3,
                "move": 2,
                "tile": hall("Ana", 1, 2),
            },
            {"type": "play_treasure", "player": "Ana", "name": "Iron Helm"},
            {"type": "equip", "player": "Ana", "merc": "m1", "treasure": {"name": "Iron Helm", "armour": 1}},
            {
                "type": "play_merc",
                "player": "Ana",
                "name": "Gunner",
                "health": 4,
                "bounty": 1,
                "ranged": 2,
                "ranged_type": "staff",
                "move": 1,
            },
            {"type": "end_turn", "player": "Ana"},
            np("Ana", at=T0 + 300),
        ],
    )
    show = purser.show(sid)
    detail = show["summary"]["detail"]
    assert counts(show, "Ana") == (28, 7, 30)
    assert merc(detail, "m1")["armour"] == 2 and detail["players"]["Ana"]["warchest"] == 0
    assert (detail["turn"], detail["phase"], detail["turn_players"]) == (2, "beginning", ["Ben"])

    # -- turn 2, Ben: acquire 4, a Raider, poison and bleed on the Deckhand, an attack ------------
    results = purser.play(
        sid,
        [
            np("Ben"),
            np("Ben"),
            {"type": "acquire", "player": "Ben", "cards": 4},
            np("Ben"),
            {
                "type": "play_merc",
                "player": "Ben",
                "name": "Raider",
                "health": 7,
                "bounty": 3,
                "magic_armour": 1,
                "defence": 2,
                "melee": 2,
                "move": 3,
                "tile": hall("Ben", 2, 2),
            },
            {"type": "ability", "player": "Ben", "kind": "instant", "card": "Venom Dart"},
            {"type": "add_status", "target": "m1", "status": "poison", "count": 2},
            {"type": "add_status", "target": "m1", "status": "bleed", "count": 1},
            np("Ben"),
            {"type": "move", "player": "Ben", "merc": "m3", "to": hall("Ben", 3, 3)},
            np("Ben"),
            {"type": "attack", "player": "Ben", "merc": "m3", "target": "m2", "with": "melee"},
            np("Ben"),
            np("Ben"),  # End: Bleed 1 + Poison 2 hits the Deckhand
            np("Ben"),  # refused: 10 cards in hand
            {"type": "discard", "player": "Ben", "cards": 1},
            np("Ben", at=T0 + 700),
        ],
    )
    assert [r["ok"] for r in results] == [True] * 14 + [False, True, True]
    assert results[14]["error"] == "illegal" and "discard 1" in results[14]["message"]
    end = next(e for e in results[13]["events"] if e["type"] == "damage")
    assert (end["merc"], end["damage_type"], end["poison"], end["dealt"], end["health"]) == ("m1", "true", 2, 3, 3)
    assert "hand_limit" in types(results[13:14])
    show = purser.show(sid)
    detail = show["summary"]["detail"]
    assert counts(show, "Ben") == (26, 9, 28)
    assert merc(detail, "m2")["health"] == 2 and merc(detail, "m3")["statuses"] == {"exhaust": 1}
    assert merc(detail, "m3")["tile"] == hall("Ben", 3, 3)

    # -- turn 3, Ana: frost and burn on the Raider, poison mended, two attacks --------------------
    results = purser.play_ok(
        sid,
        [
            np("Ana"),
            np("Ana"),
            {"type": "acquire", "player": "Ana", "cards": 1},
            np("Ana"),
            {"type": "ability", "player": "Ana", "kind": "event", "card": "Frostfire Squall"},
            {"type": "add_status", "target": "m3", "status": "frost", "count": 2},
            {"type": "add_status", "target": "m3", "status": "burn", "count": 1},
            {"type": "ability", "player": "Ana", "kind": "instant", "card": "Antidote"},
            {"type": "mend", "target": "m1", "status": "poison"},
            np("Ana"),
            {"type": "move", "player": "Ana", "merc": "m1", "to": hall("Ana", 3, 2)},
            np("Ana"),
            {"type": "attack", "player": "Ana", "merc": "m2", "target": "m3", "with": "ranged"},
            {"type": "attack", "player": "Ana", "merc": "m1", "target": "m3", "with": "melee"},
            {"type": "end_turn", "player": "Ana"},  # End: Bleed 1, no poison now
            np("Ana"),  # Ben's Beginning: the Raider's exhaust comes off
        ],
    )
    ranged, melee = (next(e for e in r["events"] if e["type"] == "damage") for r in results[12:14])
    assert (ranged["armour"], ranged["defence"], ranged["dealt"], ranged["health"]) == (1, 1, 0, 7)
    assert (melee["defence"], melee["dealt"], melee["health"]) == (0, 3, 4)
    show = purser.show(sid)
    detail = show["summary"]["detail"]
    assert counts(show, "Ana") == (27, 7, 28)
    raider = merc(detail, "m3")
    assert raider["statuses"] == {"burn": 1, "frost": 2} and not raider["defence_ready"] and raider["health"] == 4
    assert merc(detail, "m1")["health"] == 2 and merc(detail, "m1")["statuses"] == {"bleed": 1, "exhaust": 1}

    # -- turn 4, Ben: frost limits the move; burn at the Attack phase; two of Ana's fall ----------
    results = purser.play(
        sid,
        [
            np("Ben"),
            np("Ben"),
            {"type": "acquire", "player": "Ben", "cards": 3},
            np("Ben"),
            {"type": "play_merc", "player": "Ben", "name": "Brute", "health": 5, "bounty": 4, "melee": 4, "move": 1},
            np("Ben"),
            {"type": "move", "player": "Ben", "merc": "m3", "spaces": 2},  # refused: frost 2 leaves 1 of 3
            {"type": "move", "player": "Ben", "merc": "m3", "to": hall("Ben", 3, 2)},
            np("Ben"),  # frost lifts; Attack: burn 1 deals 1 true
            {"type": "attack", "player": "Ben", "merc": "m3", "target": "m2", "with": "melee"},
            {"type": "attack", "player": "Ben", "merc": "m4", "target": "m1", "with": "melee"},
            np("Ben"),  # burn comes off
            np("Ben"),
            {"type": "discard", "player": "Ben", "cards": 3},
            np("Ben", at=T0 + 1500),
        ],
    )
    assert [r["ok"] for r in results] == [True] * 6 + [False] + [True] * 8
    assert "1 movement left" in results[6]["message"]
    attack_start = results[8]["events"]
    assert [e["type"] for e in attack_start] == ["status", "phase", "damage"]
    assert attack_start[0]["status"] == "frost" and attack_start[0]["count"] == 0
    assert (attack_start[2]["cause"], attack_start[2]["dealt"], attack_start[2]["health"]) == ("Burn 1", 1, 3)
    assert types(results[9:11]) == ["attack", "damage", "destroyed", "loot"] * 2
    assert results[10]["events"][1]["armour"] == 2, "the Brute's 4 less the Deckhand's armour 1 + helm 1"
    assert [e["status"] for e in results[11]["events"] if e["type"] == "status"] == ["burn"]
    show = purser.show(sid)
    detail = show["summary"]["detail"]
    assert counts(show, "Ana") == (24, 7, 28) and counts(show, "Ben") == (23, 9, 24)
    assert [m["id"] for m in detail["mercenaries"]] == ["m3", "m4"]
    assert merc(detail, "m3")["statuses"] == {"exhaust": 1} and merc(detail, "m3")["health"] == 3

    # -- turn 5, Ana: a Corsair plunders; bleed 5 on the Brute kills it at the End phase ---------
    results = purser.play_ok(
        sid,
        [
            np("Ana"),
            np("Ana"),
            {"type": "acquire", "player": "Ana", "cards": 0},
            np("Ana"),
            {"type": "play_merc", "player": "Ana", "name": "Corsair", "health": 5, "bounty": 5, "melee": 2, "move": 2},
            {"type": "ability", "player": "Ana", "kind": "instant", "card": "Hemorrhage"},
            {"type": "add_status", "target": "m4", "status": "bleed", "count": 5},
            np("Ana"),
            np("Ana"),
            {"type": "plunder", "player": "Ana", "merc": "m5"},
            {"type": "end_turn", "player": "Ana"},
            np("Ana"),
        ],
    )
    loot = [e for e in results[9]["events"] if e["type"] == "loot"]
    assert [(e["player"], e["change"], e["vault"]) for e in loot] == [("Ben", -5, 18), ("Ana", 5, 29)]
    bled = [e for e in results[10]["events"] if e["type"] in ("damage", "destroyed", "loot")]
    assert [(e["type"], e.get("merc") or e.get("player")) for e in bled] == [
        ("damage", "m4"),
        ("destroyed", "m4"),
        ("loot", "Ben"),
    ]
    assert bled[2]["vault"] == 14 and bled[2]["reason"] == "bounty: Brute destroyed"

    # -- turn 6, Ben: acquire 2, a Sea Witch wounds the Corsair ------------------------------------
    purser.play_ok(
        sid,
        [
            np("Ben"),
            np("Ben"),
            {"type": "acquire", "player": "Ben", "cards": 2},
            np("Ben"),
            {
                "type": "play_merc",
                "player": "Ben",
                "name": "Sea Witch",
                "health": 4,
                "bounty": 4,
                "ranged": 3,
                "ranged_type": "staff",
                "move": 1,
            },
            np("Ben"),
            np("Ben"),
            {"type": "attack", "player": "Ben", "merc": "m6", "target": "m5", "with": "ranged"},
            {"type": "end_turn", "player": "Ben"},
            {"type": "discard", "player": "Ben", "cards": 2},
            np("Ben"),
        ],
    )
    show = purser.show(sid)
    detail = show["summary"]["detail"]
    assert counts(show, "Ben") == (12, 9, 21) and counts(show, "Ana") == (29, 6, 27)
    assert merc(detail, "m5")["health"] == 2 and merc(detail, "m5")["statuses"] == {}, "exhaust came off"
    assert (detail["turn"], detail["phase"], detail["turn_players"]) == (7, "beginning", ["Ana"])

    # -- turn 7, Ana: plunder, the Raider falls, and Bleed takes Ben's last loot ------------------
    results = purser.play_ok(
        sid,
        [
            np("Ana"),
            np("Ana"),
            {"type": "acquire", "player": "Ana", "cards": 0},
            np("Ana"),
            {"type": "ability", "player": "Ana", "kind": "instant", "card": "Hemorrhage"},
            {"type": "add_status", "target": "m6", "status": "bleed", "count": 5},
            {
                "type": "play_merc",
                "player": "Ana",
                "name": "Marksman",
                "health": 3,
                "bounty": 1,
                "ranged": 3,
                "ranged_type": "crossbow",
                "move": 1,
            },
            np("Ana"),
            np("Ana"),
            {"type": "plunder", "player": "Ana", "merc": "m5"},
            {"type": "attack", "player": "Ana", "merc": "m7", "target": "m3", "with": "ranged"},
            {"type": "end_turn", "player": "Ana", "at": T0 + 2400},
        ],
    )
    last = results[-1]["events"]
    assert [e["type"] for e in last][-6:] == ["damage", "destroyed", "loot", "out", "game_over", "match_over"]
    assert last[-4]["vault"] == 0 and last[-3]["text"] == "Ben is out: the Vault is empty."
    show = purser.show(sid, history=3)
    summary = show["summary"]
    assert summary["over"] and summary["winners"] == ["Ana"]
    assert summary["scores"] == {"Ana": 34.0, "Ben": 0.0}
    assert counts(show, "Ana") == (34, 5, 26) and counts(show, "Ben") == (0, 9, 21)
    assert summary["detail"]["clock"]["elapsed_s"] == 2400 and not summary["detail"]["clock"]["time_up"]
    ben_log = [(e["change"], e["reason"]) for e in summary["detail"]["loot_log"] if e["player"] == "Ben"]
    assert ben_log == [
        (-4, "Acquire 4 cards"),
        (-3, "Acquire 3 cards"),
        (-5, "plundered by Ana's Corsair (m5)"),
        (-4, "bounty: Brute destroyed"),
        (-2, "Acquire 2 cards"),
        (-5, "plundered by Ana's Corsair (m5)"),
        (-3, "bounty: Raider destroyed"),
        (-4, "bounty: Sea Witch destroyed"),
    ]
    assert show["legal_actions"] == []
    refused = purser.play(sid, [np("Ana")])
    assert refused[0]["ok"] is False and "over" in refused[0]["message"]
