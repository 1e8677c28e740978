"""Loss conditions of each format, games and matches (best-of-N)."""

from __future__ import annotations

import pytest

from companion.games import guilded
from tests.games.guilded.support import Table

FOUR = ("Ana", "Ben", "Cy", "Dee")


def lose_vault(t: Table, player: str) -> None:
    t.do("loot", player=player, amount=-t.seat(player).vault, reason="test")


@pytest.mark.parametrize("fmt, vault", [("standard", 30), ("draft", 20), ("guild_master", 40), ("arena", 30)])
def test_an_empty_vault_loses(fmt, vault):
    players = ("Ana", "Ben")
    t = Table(players, format=fmt)
    if fmt == "draft":
        t.do("decks_ready")
    t.start("Ana")
    assert t.seat("Ben").vault == vault
    t.do("loot", player="Ben", amount=-(vault - 1), reason="test")
    assert t.state.stage == "play"
    events = t.do("loot", player="Ben", amount=-1, reason="test")
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["loot", "out"] and "game_over" in kinds
    assert events[1]["text"] == "Ben is out: the Vault is empty."
    if t.state.settings.best_of == 1:
        assert t.seat("Ben").out == "the Vault is empty"
        assert t.state.stage == "over" and guilded.summary(t.state).winners == ("Ana",)
        assert guilded.legal_actions(t.state) == []
        t.refused("next_phase", "over", player="Ana")
    else:
        assert t.state.game == 2 and t.state.wins == (1, 0) and t.seat("Ben").vault == vault


def test_bounty_can_empty_a_vault():
    t = Table().start("Ana")
    t.to("attack")
    a = t.put("Ana", melee=9)
    b = t.put("Ben", health=3, bounty=5)
    t.do("loot", player="Ben", amount=-25, reason="test")
    t.do("attack", player="Ana", merc=a, target=b)
    assert t.state.stage == "over" and t.state.winners == (0,)
    assert t.seat("Ben").vault == 0


def test_drawing_from_an_empty_deck_loses():
    t = Table().start("Ana")
    t.do("counts", player="Ben", deck=0)
    t.next_turn()  # Ben's turn begins; the draw comes at the Draw phase
    assert t.state.stage == "play"
    t.do("next_phase", player="Ben")
    assert t.seat("Ben").out == "ran out of cards" and t.state.winners == (0,)


def test_empty_deck_rule_loses_at_once():
    t = Table(deck_out="empty_deck").start("Ana")
    t.to("acquire")
    t.do("counts", player="Ana", deck=2)
    t.do("acquire", player="Ana", cards=2)
    assert t.seat("Ana").out == "ran out of cards" and t.state.winners == (1,)


def test_concede():
    t = Table().start("Ana")
    events = t.do("concede", player="Ana")
    assert t.state.winners == (1,)
    assert guilded.summary(t.state).prompt == "Ben won the match."
    texts = [e["text"] for e in events]
    assert "Ben wins the match." in texts and any(x.startswith("Ben wins game 1") for x in texts)


def test_a_team_wins_in_the_plural():
    t = Table(("Ana", "Ben", "Cy", "Dee")).start("Ana")
    events = t.do("concede", player="Ben") + t.do("concede", player="Dee")
    winners = guilded.summary(t.state).winners
    words = " ".join(e["text"] for e in events if e["type"] in ("game_over", "match_over"))
    assert len(winners) == 2 and f"{winners[0]} and {winners[1]} win the match." in words


def test_concede_during_setup():
    t = Table(("Ana", "Ben", "Cy"), format="guild_master")
    t.do("roll", player="Ana", value=6)
    t.do("concede", player="Ana")
    assert t.state.stage == "roll"
    t.do("roll", player="Ben", value=3)
    t.do("roll", player="Cy", value=5)
    assert t.state.players[t.state.roll_winner] == "Cy"


def test_guild_master_defeated_loses_and_the_game_goes_on():
    t = Table(("Ana", "Ben", "Cy"), format="guild_master").start("Ana")
    t.to("rally")
    t.do("play_merc", player="Ana", name="Boss", health=5, bounty=4, stars=3, guild_master=True)
    t.do("play_merc", player="Ana", name="Aide", health=5)
    t.do("damage", target="Boss", amount=5, damage_type="pure")
    assert t.seat("Ana").out == "Guild Master defeated" and t.seat("Ana").vault == 36
    assert t.state.stage == "play" and t.state.mercs == (), "Ana's other mercenaries leave with her"
    assert t.turn_player() == "Ben", "Ana was the turn player; the turn passes on"
    lose_vault(t, "Cy")
    assert t.state.winners == (1,)


def test_arena_side_without_mercenaries_loses_the_game_and_best_of_three():
    t = Table(format="arena").start("Ana")
    assert t.state.stage == "play"
    champ = next(m.id for m in t.state.mercs if m.owner == 1)
    t.do("destroy", target=champ)
    assert t.seat("Ben").vault == 30, "Arena has no bounty cost"
    assert t.state.stage == "roll" and t.state.game == 2 and t.state.wins == (1, 0)
    assert t.state.mercs == () and t.seat("Ben").out == "" and t.seat("Ana").vault == 30
    t.start("Ben")
    champ = next(m.id for m in t.state.mercs if m.owner == 0)
    t.do("destroy", target=champ)
    assert t.state.game == 3 and t.state.wins == (1, 1)
    t.start("Ana")
    champ = next(m.id for m in t.state.mercs if m.owner == 0)
    t.do("destroy", target=champ)
    assert t.state.stage == "over" and t.state.wins == (1, 2) and t.state.winners == (1,)
    detail = guilded.summary(t.state).detail["format"]
    assert [r["winners"] for r in detail["results"]] == ["Ana", "Ben", "Ben"]


@pytest.mark.parametrize("rule, lost_after_champion", [("all_mercenaries", False), ("champion", True)])
def test_arena_defeat_house_rule(rule, lost_after_champion):
    t = Table(format="arena", arena_defeat=rule).start("Ana")
    t.put("Ben", "Extra")
    champ = next(m.id for m in t.state.mercs if m.owner == 1 and m.role == "champion")
    t.do("destroy", target=champ)
    assert (t.state.wins == (1, 0)) is lost_after_champion


def test_three_player_standard_is_each_for_themselves():
    t = Table(("Ana", "Ben", "Cy")).start("Ana")
    assert t.state.sides == (0, 1, 2)
    lose_vault(t, "Ana")
    assert t.state.stage == "play" and t.turn_player() == "Ben", "Ana's turn passes on when she is out"
    t.next_turn()
    assert t.turn_player() == "Cy"
    t.next_turn()
    assert t.turn_player() == "Ben", "Ana's seat is skipped"
    lose_vault(t, "Ben")
    assert t.state.winners == (2,)


def test_two_versus_two_team_loses_when_both_are_out():
    t = Table(FOUR).start("Ana")
    lose_vault(t, "Ben")
    assert t.state.stage == "play" and t.seat("Ben").out
    lose_vault(t, "Dee")
    assert t.state.stage == "over" and t.state.winners == (0, 2)
    assert guilded.summary(t.state).winners == ("Ana", "Cy")


# -- time ---------------------------------------------------------------------------------

T0 = 1_700_000_000.0


def test_time_up_finishes_the_turn_then_most_loot_wins():
    t = Table(timer_minutes=10).start("Ana")
    t.do("clock", at=T0)
    t.do("loot", player="Ana", amount=-3, reason="test", at=T0 + 60)
    events = t.do("next_phase", player="Ana", at=T0 + 601)
    assert any(e["type"] == "time_up" for e in events) and t.state.time_up
    assert t.state.stage == "play", "the turn in play is finished first"
    assert "Time is up" in " ".join(guilded.summary(t.state).detail["reminders"])
    t.do("end_turn", player="Ana")
    t.do("next_phase", player="Ana")
    assert t.state.stage == "over" and t.state.winners == (1,)
    assert t.state.results == ((1, "time: most loot"),)


def test_time_up_with_equal_loot_is_a_draw():
    t = Table(timer_minutes=1).start("Ana")
    t.do("clock", at=T0)
    t.do("clock", at=T0 + 60)
    t.do("end_turn", player="Ana")
    t.do("next_phase", player="Ana")
    assert t.state.stage == "over" and t.state.winners == ()
    assert guilded.summary(t.state).prompt == "The match ended in a draw."


def test_announce_only_lets_play_go_on():
    t = Table(timer_minutes=1, time_up="announce").start("Ana")
    t.do("clock", at=T0)
    events = t.do("clock", at=T0 + 61)
    assert [e["type"] for e in events] == ["time_up"]
    t.next_turn()
    assert t.state.stage == "play" and t.turn_player() == "Ben"


def test_time_up_between_games_ends_the_match_on_wins():
    t = Table(format="arena").start("Ana")
    t.do("clock", at=T0)
    champ = next(m.id for m in t.state.mercs if m.owner == 1)
    t.do("destroy", target=champ, at=T0 + 100)
    assert t.state.stage == "roll"
    t.do("roll", player="Ana", value=3, at=T0 + 40 * 60)
    assert t.state.stage == "over" and t.state.winners == (0,)


def test_casual_play_has_no_timer():
    t = Table(casual=True).start("Ana")
    t.do("clock", at=T0)
    t.do("clock", at=T0 + 10 * 3600)
    assert not t.state.time_up
    clock = guilded.summary(t.state).detail["clock"]
    assert clock["casual"] and clock["remaining_s"] is None and clock["elapsed_s"] == 36000
