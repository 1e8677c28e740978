"""`purser show` prints what the table may see; `purser show --as PLAYER` what only that player
may see: a card named when drawn from a real deck, a card Purser dealt from its own deck and a
Guilded deck list never appear in public output, and the private view names exactly the
player's own concealed cards."""

from __future__ import annotations

import json

import pytest

from companion.errors import ExitCode
from tests.support.cli import PurserCLI

#: One copy of each Adventure card, each name found nowhere else in the game.
SCALLY = {
    "first_captain": "first_seat",
    "adventure_cards": "Kraken:1:others-1,Mutiny:1:self-1,Sirens:1:target-1",
}
ADVENTURES = ("Kraken", "Mutiny", "Sirens")
#: Ana bids, Ben calls, the bid is false: Ben draws.
TO_THE_DRAW = [
    {"type": "bid", "player": "Ana", "quantity": 1, "face": 6},
    {"type": "call", "player": "Ben"},
    {"type": "reveal", "count": 0},
]


@pytest.fixture
def cli(tmp_path):
    return PurserCLI(tmp_path / "p.db", in_process=True)


def scallywagger(cli: PurserCLI, draw: dict) -> int:
    sid = cli.new("scallywagger", ["Ana", "Ben"], SCALLY, seed=3)
    cli.play_ok(sid, [*TO_THE_DRAW, draw])
    return sid


def public_outputs(cli: PurserCLI, sid: int) -> str:
    """`purser show`, as JSON and as text, less the house rules (which list every card of the decks)."""
    shown = json.loads(cli.run("show", str(sid), "--json", "--history", "50").stdout)
    assert shown.pop("rules")
    return json.dumps(shown, ensure_ascii=False) + cli.run("show", str(sid)).stdout


def test_a_card_named_when_drawn_from_a_real_deck_is_not_in_show(cli):
    sid = scallywagger(cli, {"type": "draw", "player": "Ben", "deck": "adventure", "card": "Mutiny"})
    exported = json.loads(cli.run("export", str(sid)).stdout)
    assert exported["actions"][-1]["card"] == "Mutiny"  # the journal holds it (the owner's backup keeps it)
    assert "Mutiny" not in public_outputs(cli, sid)
    history = cli.show(sid, history=10)["history"]
    assert history[-1]["action"] == {"type": "draw", "player": "Ben", "deck": "adventure"}
    assert "Ben draws an Adventure card and keeps it concealed." in history[-1]["text"]
    assert [h["seq"] for h in history] == [1, 2, 3, 4]
    assert (
        cli.show(sid, history=10)["legal_actions"]
        == json.loads(cli.run("show", str(sid), "--json").stdout)["legal_actions"]
    )


def test_a_guilded_deck_list_shows_only_its_size(cli):
    sid = cli.new("guilded", ["Ana", "Ben"], {"deck_size": 4, "deck_size_exact": "true"}, seed=1)
    cli.play_ok(
        sid,
        [
            {
                "type": "deck",
                "player": "Ana",
                "cards": [
                    {"name": "Stowaway Dragonfly", "stars": 1, "count": 3},
                    {"name": "Gilded Heron", "stars": 2, "count": 1},
                ],
            }
        ],
    )
    shown = public_outputs(cli, sid)
    assert "Dragonfly" not in shown and "Heron" not in shown
    assert cli.show(sid, history=1)["history"][0]["action"] == {"type": "deck", "player": "Ana", "cards": 4}


def test_show_as_a_player_names_only_their_own_concealed_card(cli):
    sid = scallywagger(cli, {"type": "draw", "player": "Ben", "deck": "adventure"})  # Purser's own deck
    mine = json.loads(cli.run("show", str(sid), "--as", "ben", "--json").stdout)
    assert mine["player"] == "Ben" and len(mine["concealed"]) == 1
    (card,) = mine["concealed"]
    assert card in ADVENTURES and card not in public_outputs(cli, sid)
    assert {a["card"] for a in mine["actions"]} == {card}  # the moves that name it, for Ben alone
    assert all(a["player"] == "Ben" for a in mine["actions"])
    text = cli.run("show", str(sid), "--as", "Ben").stdout
    assert "for Ben's eyes only" in text and f"Ben's concealed cards: {card}" in text
    assert json.dumps(mine["actions"][0], ensure_ascii=False) in text  # ready for `purser play`
    others = cli.run("show", str(sid), "--as", "Ana").stdout
    assert card not in others and "Ana holds no concealed card" in others
    # the move it lists is accepted, and reveals the card to the table
    cli.play_ok(sid, [mine["actions"][0]])
    assert card in public_outputs(cli, sid)
    assert json.loads(cli.run("show", str(sid), "--as", "Ben", "--json").stdout)["concealed"] == []


def test_show_as_someone_not_playing_is_refused_in_one_line(cli):
    sid = scallywagger(cli, {"type": "draw", "player": "Ben", "deck": "adventure"})
    r = cli.run("show", str(sid), "--as", "Zed", expect=ExitCode.NOT_FOUND)
    assert r.stdout == ""
    assert r.stderr.strip() == (
        f"purser: nobody called 'Zed' plays in game {sid} (players: Ana, Ben); nothing was shown"
    )
    assert not any(card in r.stderr for card in ADVENTURES)


def test_a_game_without_concealed_cards_says_so(cli):
    sid = cli.new("seven", ["Ana", "Ben"], seed=1)
    assert "Ana holds no concealed card" in cli.run("show", str(sid), "--as", "Ana").stdout
    view = json.loads(cli.run("show", str(sid), "--as", "Ana", "--json").stdout)
    assert view == {"id": sid, "game": "seven", "player": "Ana", "concealed": [], "actions": [], "detail": {}}


def test_show_calls_davy_jones_by_the_pirate_name_and_a_finished_match_by_its_monikers(cli):
    from tests.games.test_swashbuckle_match import EXPECTED, script

    sid = cli.new("swashbuckle", ["Ana", "Ben", "Cy"], {"etiquette_penalty": "true", "davy_jones": "Ana"}, seed=3)
    assert cli.run("show", str(sid)).stdout.splitlines()[1:3] == [" * Ana (Davy Jones) 0", " * Ben              0"]
    cli.play_ok(sid, script())
    lines = cli.run("show", str(sid), "--history", "0").stdout.splitlines()
    assert lines[0].endswith("finished")
    assert lines[1:4] == [  # every total is 341 or more: a Captain's moniker
        f"   Ana (Davy Jones) {EXPECTED['Ana']:g}  Captain",
        f"   Ben              {EXPECTED['Ben']:g}  Captain",
        f"   Cy               {EXPECTED['Cy']:g}  Captain",
    ]
