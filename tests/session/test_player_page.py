from __future__ import annotations

from dataclasses import replace

from companion.session.player_page import player_page
from companion.store import SessionRecord


def record(players, winners, scores, *, profiles=None, finished=True, game="swashbuckle", damaged=""):
    return SessionRecord(
        id=0,
        game=game,
        config={},
        seed=1,
        players=tuple(players),
        created="",
        updated="",
        cursor=0,
        finished=finished,
        result={"winners": winners, "scores": scores} if finished else None,
        hardware={},
        damaged=damaged,
        profiles=tuple(profiles or players),
    )


def test_a_players_page_counts_wins_scores_and_rivals():
    page = player_page(
        "Ana",
        [
            record(("Ana", "Ben"), ["Ana"], {"Ana": 250, "Ben": 200}),
            record(("Ana", "Ben"), ["Ben"], {"Ana": 150, "Ben": 210}),
            record(("Ana", "Cy"), [], {}, finished=False),
            record(("Ben", "Cy"), ["Cy"], {"Ben": 1, "Cy": 2}),
        ],
    )
    g = page.games["swashbuckle"]
    assert (g.played, g.finished, g.wins, g.best, g.average, g.win_rate) == (3, 2, 1, 250, 200, 0.5)
    assert (page.rivals["Ben"].together, page.rivals["Ben"].wins, page.rivals["Ben"].losses) == (2, 1, 1)
    assert "Cy" not in page.rivals  # the unfinished game counts as played, not head to head
    assert (page.total.played, page.total.wins) == (3, 1)


def test_nobody_has_a_page_of_games_they_never_played():
    page = player_page("Dee", [record(("Ana", "Ben"), ["Ana"], {"Ana": 1, "Ben": 0})])
    assert page.games == {} and page.rivals == {} and page.total.win_rate is None
    assert player_page("Ana", []).games == {}


def test_a_players_page_counts_games_for_the_profile_not_the_name_played_under():
    sessions = [
        record(("Ana", "Ben"), ["Ana"], {"Ana": 5, "Ben": 1}, profiles=("Anna", "Ben")),  # before Ana became Anna
        record(("Anna", "Benjamin"), ["Benjamin"], {"Anna": 2, "Benjamin": 4}, profiles=("Anna", "Ben")),  # merged
        record(("Ana", "Cy"), ["Ana"], {"Ana": 9, "Cy": 0}),  # a new Ana, someone else
    ]
    page = player_page("anna", sessions)
    g = page.games["swashbuckle"]
    assert (g.played, g.wins, g.best, g.average) == (2, 1, 5, 3.5)
    assert set(page.rivals) == {"Ben"} and (page.rivals["Ben"].together, page.rivals["Ben"].losses) == (2, 1)
    assert player_page("Ana", sessions).games["swashbuckle"].played == 1


def test_a_damaged_game_is_left_out_as_in_the_players_list():
    sound = record(("Ana", "Ben"), ["Ana"], {"Ana": 5, "Ben": 1})
    damaged = replace(sound, damaged="its journal does not replay", result={"winners": ["Ana"], "scores": {"Ana": 99}})
    page = player_page("Ana", [sound, damaged])
    g = page.games["swashbuckle"]
    assert (g.played, g.wins, g.best) == (1, 1, 5)
