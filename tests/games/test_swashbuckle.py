"""Swashbuckle's rules on the engine directly: turns, Hornswaggle, the Curse, Piracy,
the Swashbuckle Bonus, who starts, and the non-standard table options."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import ConfigError, IllegalAction, find_game
from tests.support.swashbuckle_plans import SOLO_WITHOUT_PIRACY

SWASH = find_game("swashbuckle")


class Table:
    """A match on the engine, with short ways to act."""

    def __init__(self, players=("Ana", "Ben", "Cy"), **rules):
        rules.setdefault("who_starts", "seating")
        self.state = SWASH.initial_state(rules, players, 7)
        self.events = []

    def do(self, **action):
        self.state, self.events = SWASH.apply(self.state, action)
        return self.events

    def roll(self, player, dice, keep=None, **more):
        action = {"type": "roll", "player": player, "dice": dice, **more}
        if keep is not None:
            action["keep"] = keep
        return self.do(**action)

    def score(self, player, box, **more):
        return self.do(type="score", player=player, box=box, **more)

    def turn(self, player, dice, box, **more):
        self.roll(player, dice)
        return self.score(player, box, **more)

    def refused(self, message, **action):
        before = self.state
        with pytest.raises(IllegalAction, match=message):
            SWASH.apply(self.state, action)
        assert self.state is before

    @property
    def summary(self):
        return SWASH.summary(self.state)

    def sheet(self, player, column=0):
        return self.summary.detail["pirates"][player]["columns"][column]

    def total(self, player):
        return self.summary.detail["pirates"][player]["total"]

    def box(self, player, key, column=0):
        return self.sheet(player, column)["boxes"][key]

    def fill(self, player, **boxes):
        """Write boxes straight onto a player's first column (set-up for late-match situations)."""
        seat = self.state.players.index(player)
        pirate = self.state.pirates[seat]
        column = pirate.columns[0]
        for key, points in boxes.items():
            column = column.fill(self.state.sheet.index(key), points)
        self.state = self.state.with_pirate(seat, pirate.with_column(0, column))


def texts(events):
    return " | ".join(e["text"] for e in events)


# -- starting -------------------------------------------------------------------------------------


def test_a_seated_captain_always_starts():
    t = Table(("Ana", "Ben", "Cy"), who_starts="roll_off", captain="ben")
    assert t.state.current == 1 and t.summary.to_act == ("Ben",)


def test_a_captain_who_is_not_seated_changes_nothing():
    t = Table(("Ana", "Ben"), who_starts="roll_off", captain="Dora")
    assert t.state.phase == "roll_off" and t.state.captain is None


@pytest.mark.parametrize(
    "dice, starter",
    [
        ({"Ana": 3, "Ben": 5, "Cy": 2}, "Ben"),
        ({"Ana": 6, "Ben": 6, "Cy": 2}, "Cy"),  # tied sixes count 0
        ({"Ana": 1, "Ben": 4, "Cy": 4}, "Ana"),
    ],
)
def test_roll_off_highest_unmatched_die_starts(dice, starter):
    t = Table(who_starts="roll_off")
    assert t.state.phase == "roll_off"
    for player, value in dice.items():
        t.do(type="roll_off", player=player, dice=[value])
    assert t.state.phase == "play" and t.state.players[t.state.current] == starter
    assert f"{starter} starts" in texts(t.events)


def test_roll_off_all_tied_means_everyone_rolls_again():
    t = Table(("Ana", "Ben", "Cy", "Dee"), who_starts="roll_off")
    for player, value in {"Ana": 5, "Ben": 5, "Cy": 2, "Dee": 2}.items():
        t.do(type="roll_off", player=player, dice=[value])
    assert t.state.phase == "roll_off" and t.state.roll_off == (None,) * 4
    assert "all roll again" in texts(t.events)
    t.refused("first find who starts", type="roll", player="Ana", dice=[1, 2, 3, 4, 5])
    for player, value in {"Ana": 1, "Ben": 2, "Cy": 3, "Dee": 3}.items():
        t.do(type="roll_off", player=player, dice=[value])
    assert t.state.current == 1  # Ben's 2 beats Ana's 1; the 3s count 0


def test_roll_off_refusals():
    t = Table(("Ana", "Ben"), who_starts="roll_off")
    t.do(type="roll_off", player="Ana", dice=[4])
    t.refused("already rolled", type="roll_off", player="Ana", dice=[5])
    t.refused("1 dice|expected 1", type="roll_off", player="Ben", dice=[5, 6])
    camera = {"dice": [{"value": 3, "unsure": True}], "unsure": 1}
    t.refused("unsure.*type the die", type="roll_off", player="Ben", detections=camera)
    t.do(type="roll_off", player="Ben", detections={"dice": [{"value": 6, "unsure": False}], "unsure": 0})
    assert t.state.current == 1


def test_one_player_and_seating_order_need_no_roll_off():
    assert Table(("Solo",), who_starts="roll_off").state.phase == "play"
    assert Table(who_starts="seating").state.current == 0


def test_bad_settings_are_refused():
    with pytest.raises(ConfigError):
        SWASH.initial_state({"columns": 0}, ["Ana"], 1)
    with pytest.raises(ConfigError):
        SWASH.initial_state({"pillage_mode": "borrow"}, ["Ana"], 1)
    with pytest.raises(ConfigError):
        SWASH.initial_state({"waterline_after": "bilge"}, ["Ana"], 1)


# -- turns, rolls, Hornswaggle ---------------------------------------------------------------------


def test_three_rolls_with_holds_then_a_box():
    t = Table()
    t.roll("Ana", [1, 3, 3, 5, 6])
    t.roll("Ana", [3, 1], keep=[3, 3, 5])
    t.roll("Ana", [3], keep=[3, 3, 3, 5])
    assert t.state.turn.dice.dice == (3, 3, 3, 3, 5) and t.state.turn.dice.rolls == 3
    t.refused('hornswaggle": true', type="roll", player="Ana", keep=[3, 3, 3, 3], dice=[3])
    t.score("Ana", "four_alike")
    assert t.box("Ana", "four_alike") == 17 and t.state.current == 1


def test_hornswaggle_is_a_fourth_roll_once_per_match_for_15():
    t = Table(("Ana", "Ben"))
    t.refused("after the third", type="roll", player="Ana", dice=[1, 2, 3, 4, 5], hornswaggle=True)
    for _ in range(3):
        t.roll("Ana", [2, 2, 2, 2, 2] if _ == 0 else [2], keep=None if _ == 0 else [2, 2, 2, 2])
    t.roll("Ana", [2], keep=[2, 2, 2, 2], hornswaggle=True)
    assert "Hornswaggles" in texts(t.events)
    t.refused("already used Hornswaggle", type="roll", player="Ana", keep=[2, 2, 2, 2], dice=[2], hornswaggle=True)
    t.score("Ana", "swashbuckle")
    assert t.summary.detail["pirates"]["Ana"]["hornswaggle"] == -15
    assert t.sheet("Ana")["hornswaggle"] == -15 and t.total("Ana") == 50 - 15
    t.turn("Ben", [1, 1, 2, 2, 4], "twos")
    for _ in range(3):
        t.roll("Ana", [1, 2, 4, 5, 6])
    t.refused("already used Hornswaggle", type="roll", player="Ana", dice=[1, 2, 4, 5, 6], hornswaggle=True)


def test_score_before_rolling_out_of_turn_and_unknown_boxes_are_refused():
    t = Table()
    t.refused("must roll before", type="score", player="Ana", box="flotsam")
    t.refused("Ana's turn", type="roll", player="Ben", dice=[1, 2, 3, 4, 5])
    t.roll("Ana", [1, 1, 1, 3, 3])
    t.refused("no box called 'chance'", type="score", player="Ana", box="chance")
    t.refused("does not score in 4 Alike.*Options: Full Boat: 25", type="score", player="Ana", box="four_alike")
    t.refused("no 'dance' action", type="dance", player="Ana")


def test_boxes_are_accepted_by_label_too():
    t = Table()
    t.roll("Ana", [1, 1, 1, 3, 3])
    t.score("Ana", "Full Boat")
    assert t.box("Ana", "full_boat") == 25
    t.roll("Ben", [1, 1, 1, 3, 3])
    t.score("Ben", "3 alike")
    assert t.box("Ben", "three_alike") == 9


def test_a_filled_box_is_refused_and_scuttling_only_when_nothing_scores():
    t = Table(("Ana",))
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.roll("Ana", [2, 2, 2, 3, 3])
    t.refused("already filled", type="score", player="Ana", box="full_boat")
    t.fill("Ana", ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6, three_alike=10, flotsam=12)
    t.state = replace(t.state, turn=replace(t.state.turn, dice=replace(t.state.turn.dice, dice=(2, 3, 4, 6, 6))))
    opts = SWASH.options(t.state)
    assert opts and all(o.scuttle for o in opts)
    t.score("Ana", "swashbuckle")
    assert t.box("Ana", "swashbuckle") == 0 and "scuttles Swashbuckle" in texts(t.events)


def test_scuttle_refused_when_something_scores():
    t = Table()
    t.roll("Ana", [1, 1, 1, 3, 3])
    t.refused("scuttled only when nothing scores", type="score", player="Ana", box="succession_5")


# -- the Curse ----------------------------------------------------------------------------------------


def test_curse_window_is_after_your_own_turn_until_the_next_roll():
    t = Table()
    t.refused("end of their own turn", type="curse", player="Ana", target="Ben")
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    assert {"type": "curse", "player": "Ana", "target": "Ben"} in SWASH.legal_actions(t.state)
    t.refused("another player", type="curse", player="Ana", target="Ana")
    t.refused("end of their own turn", type="curse", player="Cy", target="Ben")
    t.roll("Ben", [1, 2, 3, 4, 6])
    t.refused("end of their own turn", type="curse", player="Ana", target="Ben")


def test_a_cursed_turn_rolls_four_dice_4_alike_doubles_and_swashbuckle_is_closed():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Ben")
    assert t.state.turn.curse == "waiting" and "FOUR" in t.summary.prompt
    t.roll("Ben", [6, 6, 6, 6])
    assert t.state.turn.curse == "active"
    t.refused("2 dice given", type="roll", player="Ben", keep=[6, 6, 6], dice=[6, 6])
    t.refused("cannot be applied to Swashbuckle", type="score", player="Ben", box="swashbuckle")
    t.score("Ben", "four_alike")
    assert t.box("Ben", "four_alike") == 48
    assert t.summary.detail["pirates"]["Ana"]["curse"] == "Ben"
    # the curse is used: Ana cannot curse again
    t.turn("Cy", [2, 2, 3, 4, 5], "twos")
    t.turn("Ana", [2, 2, 3, 4, 5], "twos")
    t.refused("already used their curse", type="curse", player="Ana", target="Cy")


def test_a_cursed_player_who_rolls_five_and_is_reminded_loses_a_die_of_the_cursers_choice():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Ben")
    t.roll("Ben", [2, 3, 4, 5, 6])
    assert t.state.turn.curse == "forgotten" and "remind" in t.summary.prompt
    assert {"type": "remind", "player": "Ana", "remove": 6} in SWASH.legal_actions(t.state)
    t.refused("another player", type="remind", player="Ben", remove=6)
    t.refused("no 1 among", type="remind", player="Cy", remove=1)
    t.do(type="remind", player="Cy", remove=6)
    assert t.state.turn.dice.dice == (2, 3, 4, 5) and t.state.turn.curse == "active"
    assert not any(o.box in ("piracy", "succession_5") for o in SWASH.options(t.state))
    t.roll("Ben", [5, 5], keep=[4, 5])
    t.roll("Ben", [5], keep=[5, 5, 5])
    assert t.state.turn.dice.dice == (5, 5, 5, 5)
    t.score("Ben", "four_alike")
    assert t.box("Ben", "four_alike") == 40


def test_a_cursed_player_unreminded_by_the_third_roll_makes_the_curse_forfeit():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Ben")
    t.roll("Ben", [6, 6, 6, 2, 1])
    t.roll("Ben", [6, 5], keep=[6, 6, 6])
    t.roll("Ben", [6, 6], keep=[6, 6, 6])
    assert t.state.turn.curse == "forfeit" and "forfeit" in texts(t.events)
    assert t.summary.detail["pirates"]["Ana"]["curse_forfeit"] is True
    t.refused("too late", type="remind", player="Cy", remove=6)
    t.score("Ben", "swashbuckle")  # five dice, no curse any more
    assert t.box("Ben", "swashbuckle") == 50


def test_a_cursed_player_who_scores_unreminded_makes_the_curse_forfeit():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Ben")
    t.roll("Ben", [6, 6, 6, 6, 6])
    events = t.score("Ben", "swashbuckle")
    assert "forfeit" in texts(events) and t.box("Ben", "swashbuckle") == 50


def test_a_curse_waits_for_its_targets_next_turn():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Cy")
    assert t.state.turn.curse == "none"
    t.turn("Ben", [1, 2, 3, 4, 6], "succession_4")
    assert t.state.turn.curse == "waiting" and t.state.turn.cursed_by == 0
    t.refused("just roll four dice", type="remind", player="Ana", remove=1)


def test_a_player_cannot_be_cursed_twice_for_the_same_turn():
    t = Table()
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    t.do(type="curse", player="Ana", target="Cy")
    t.turn("Ben", [1, 2, 3, 4, 6], "succession_4")
    t.refused("already cursed", type="curse", player="Ben", target="Cy")


# -- Piracy and Pillaged ------------------------------------------------------------------------------


def test_piracy_rolls_all_five_again_and_steals_the_sum_from_a_chosen_player():
    t = Table()
    t.roll("Ana", [2, 3, 4, 5, 6])
    t.score("Ana", "piracy")
    assert t.state.turn.piracy and "Piracy!" in t.summary.prompt
    t.refused("Piracy roll", type="score", player="Ana", box="flotsam")
    t.refused(
        "the Piracy roll is all five dice: nothing can be held", type="roll", player="Ana", keep=[2], dice=[1, 2, 3, 4]
    )
    t.roll("Ana", [6, 6, 5, 4, 1])
    assert "choose whom to pillage (Ben, Cy)" in t.summary.prompt
    t.refused("single roll", type="roll", player="Ana", dice=[1, 2, 3, 4, 5])
    t.refused("must choose whom", type="pillage", player="Ana")
    t.refused("cannot pillage themselves", type="pillage", player="Ana", target="Ana")
    t.do(type="pillage", player="Ana", target="Cy")
    assert t.box("Ana", "piracy") == 22
    assert t.sheet("Cy")["pillaged"] == -22 and t.sheet("Cy")["pillaged_by"] == "Ana"
    assert t.total("Cy") == -22 and t.state.current == 1


def test_a_player_is_pillaged_only_once():
    t = Table()
    t.turn("Ana", [2, 3, 4, 5, 6], "piracy")
    t.roll("Ana", [1, 1, 1, 1, 2])
    t.do(type="pillage", player="Ana", target="Cy")
    t.turn("Ben", [1, 2, 3, 4, 5], "piracy")
    t.roll("Ben", [3, 3, 3, 3, 3])
    t.refused("already been pillaged", type="pillage", player="Ben", target="Cy")
    t.do(type="pillage", player="Ben", target="Ana")
    assert t.box("Ben", "piracy") == 40  # a Swashbuckle on a Piracy roll counts 40
    assert "counts 40" in texts(t.events)
    assert t.sheet("Ana")["pillaged"] == -40
    # no bonus X: Ben's Swashbuckle box was never scored
    assert t.sheet("Ben")["swashbuckle_bonus_marks"] == 0


def test_with_one_target_and_hornswaggle_spent_piracy_finishes_by_itself():
    t = Table(("Ana", "Ben"))
    t.fill("Ana", swashbuckle=50)
    t.state = t.state.with_pirate(0, replace(t.state.pirates[0], hornswaggle=True))
    t.turn("Ana", [1, 2, 3, 4, 5], "piracy")
    events = t.roll("Ana", [4, 4, 4, 4, 4])
    assert t.box("Ana", "piracy") == 40 and t.sheet("Ben")["pillaged"] == -40
    assert t.sheet("Ana")["swashbuckle_bonus_marks"] == 1  # a later Swashbuckle: an X
    assert "Swashbuckle Bonus" in texts(events) and t.state.current == 1


def test_hornswaggle_on_the_piracy_roll_and_a_swashbuckle_makes_davy_jones():
    t = Table(("Ana", "Ben", "Cy"))
    t.turn("Ana", [1, 2, 3, 4, 5], "piracy")
    t.roll("Ana", [6, 6, 6, 1, 2])
    t.roll("Ana", [6, 6], keep=[6, 6, 6], hornswaggle=True)
    assert t.state.turn.dice.dice == (6, 6, 6, 6, 6)
    t.do(type="pillage", player="Ana", target="Ben")
    assert "Davy Jones" in texts(t.events)
    assert t.summary.detail["davy_jones"] == "Ana"
    assert t.summary.detail["pirates"]["Ana"]["pirate_name"] == "Davy Jones"
    assert t.total("Ana") == 40 - 15 and t.total("Ben") == -40
    # a second Davy Jones: the first must choose a new name
    t.turn("Ben", [1, 1, 2, 2, 3], "ones")
    t.turn("Cy", [2, 3, 4, 5, 6], "piracy")
    t.roll("Cy", [1, 1, 1, 1, 2])
    # Hornswaggle spent and only Ana left to pillage: the Piracy finishes by itself
    events = t.roll("Cy", [1], keep=[1, 1, 1, 1], hornswaggle=True)
    assert t.sheet("Ana")["pillaged"] == -40
    assert t.summary.detail["davy_jones"] == "Cy"
    assert "Ana, the original Davy Jones, must choose a new pirate name" in texts(events)


def test_piracy_with_nobody_left_to_pillage_still_scores():
    t = Table(("Solo",))
    t.turn("Solo", [2, 3, 4, 5, 6], "piracy")
    t.roll("Solo", [5, 5, 6, 6, 1])
    t.do(type="pillage", player="Solo")
    assert t.box("Solo", "piracy") == 23 and "nobody else is playing" in texts(t.events)


def test_a_solo_piracy_roll_is_scored_not_pillaged():
    t = Table(("Solo",))
    t.turn("Solo", [2, 3, 4, 5, 6], "piracy")
    t.roll("Solo", [5, 5, 6, 6, 1])
    prompt = t.summary.prompt
    assert "score it in Piracy (nobody else is playing)" in prompt and "pillage" not in prompt
    actions = SWASH.legal_actions(t.state)
    assert {"type": "score", "player": "Solo", "box": "piracy"} in actions
    assert not [a for a in actions if a["type"] == "pillage"]
    t.score("Solo", "piracy")
    assert t.box("Solo", "piracy") == 23 and t.state.turn.dice.rolls == 0


def test_a_piracy_roll_with_one_pirate_to_pillage_names_them():
    t = Table(("Ana", "Ben"))
    t.turn("Ana", [2, 3, 4, 5, 6], "piracy")
    t.roll("Ana", [5, 5, 6, 6, 1])  # Hornswaggle is still open, so the table is asked
    assert "pillage Ben or Hornswaggle one more roll" in t.summary.prompt
    t.refused("goes in Piracy, not another box", type="score", player="Ana", box="flotsam")


@pytest.mark.parametrize("rule", ["each_way", "either"])
def test_pillage_once_house_rule(rule):
    t = Table(("Ana", "Ben", "Cy"), pillage_once=rule)
    t.turn("Ana", [2, 3, 4, 5, 6], "piracy")
    t.roll("Ana", [1, 1, 1, 1, 2])
    t.do(type="pillage", player="Ana", target="Cy")  # Ana has pillaged; Cy has been pillaged
    t.turn("Ben", [1, 2, 3, 4, 5], "piracy")
    t.roll("Ben", [3, 3, 3, 3, 4])
    targets = [a.get("target") for a in SWASH.legal_actions(t.state) if a["type"] == "pillage"]
    if rule == "each_way":  # Ana pillaged, but has not been pillaged: she still may be
        assert targets == [None] and "pillage Ana" in t.summary.prompt
        t.do(type="pillage", player="Ben")
        assert t.sheet("Ana")["pillaged_by"] == "Ben"
    else:  # Ana has pillaged, Cy has been pillaged: nobody is left for Ben
        assert "cannot be pillaged (house rule pillage_once=either)" in str(
            _refusal(t, type="pillage", player="Ben", target="Ana")
        )
        assert targets == [] and "score it in Piracy (nobody is left to pillage)" in t.summary.prompt
        t.score("Ben", "piracy")
        assert t.sheet("Ana")["pillaged_by"] is None
    t.turn("Cy", [2, 3, 4, 5, 6], "piracy")
    t.roll("Cy", [6, 6, 6, 6, 5])
    if rule == "each_way":
        assert "pillage Ben" in t.summary.prompt
    else:
        assert "Cy has been pillaged, so pillages nobody (house rule pillage_once=either)" in t.summary.prompt
        t.score("Cy", "piracy")
        assert t.box("Cy", "piracy") == 29 and t.sheet("Ben")["pillaged_by"] is None


def _refusal(t, **action):
    with pytest.raises(IllegalAction) as caught:
        SWASH.apply(t.state, action)
    return caught.value


def test_a_captain_loses_double_when_the_table_says_so():
    t = Table(("Ana", "Ben"), captain="Ben", captain_double_pillage=True)
    t.turn("Ben", [1, 1, 1, 2, 2], "ones")
    t.turn("Ana", [2, 3, 4, 5, 6], "piracy")
    t.roll("Ana", [5, 5, 5, 1, 2])
    t.do(type="pillage", player="Ana")  # the only target
    assert t.box("Ana", "piracy") == 18 and t.sheet("Ben")["pillaged"] == -36
    assert "double" in texts(t.events)


def test_plunder_added_instead_of_stolen():
    t = Table(pillage_mode="add")
    t.turn("Ana", [2, 3, 4, 5, 6], "piracy")
    t.roll("Ana", [5, 5, 5, 1, 2])
    assert t.state.turn.piracy  # Hornswaggle is still possible: Ana must say she is done
    t.refused("nobody is pillaged", type="pillage", player="Ana", target="Ben")
    t.do(type="pillage", player="Ana")
    assert t.box("Ana", "piracy") == 18 and t.total("Ben") == 0 and t.total("Cy") == 0


def test_max_potential_piracy_on_a_bonus_swashbuckle_pillages_36():
    t = Table()
    t.fill("Ana", swashbuckle=50, sixes=18, three_alike=20, four_alike=22, flotsam=20)
    t.roll("Ana", [6, 6, 6, 6, 6])
    targets = [a for a in SWASH.legal_actions(t.state) if a.get("box") == "piracy"]
    assert [a["target"] for a in targets] == ["Ben", "Cy"]
    t.refused("must choose whom", type="score", player="Ana", box="piracy")
    t.score("Ana", "piracy", target="Ben")
    assert t.box("Ana", "piracy") == 36 and t.sheet("Ben")["pillaged"] == -36
    assert t.sheet("Ana")["swashbuckle_bonus_marks"] == 1
    assert "max potential" in texts(t.events) and "Swashbuckle Bonus" in texts(t.events)


def test_max_potential_in_any_other_open_box():
    t = Table(("Ana",))
    t.fill("Ana", swashbuckle=50, twos=6, three_alike=20, four_alike=22, flotsam=20)
    t.roll("Ana", [2, 2, 2, 2, 2])
    t.refused('"target" is only for Piracy', type="score", player="Ana", box="sixes", target="Ana")
    t.score("Ana", "sixes")
    assert t.box("Ana", "sixes") == 30 and t.sheet("Ana")["swashbuckle_bonus_tally"] == 50


def test_piracy_is_scuttled_like_any_box_and_pillages_nobody():
    t = Table(("Ana", "Ben"))
    t.fill("Ana", ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6, three_alike=10, flotsam=12)
    t.roll("Ana", [2, 3, 4, 6, 6])
    events = t.score("Ana", "piracy")
    assert t.box("Ana", "piracy") == 0 and not t.state.turn.piracy
    assert texts(events) == "Ana scuttles Piracy (0) with 2 3 4 6 6."
    assert t.sheet("Ben")["pillaged_by"] is None and t.sheet("Ana")["scuttles"] == 1


# -- the end of a match, and Perfect Storm ------------------------------------------------------------


def _play_out(t, player, plan):
    for dice, box in plan:
        t.turn(player, dice, box)


SOLO_PLAN = SOLO_WITHOUT_PIRACY


def test_a_solo_match_ends_after_sixteen_turns_with_every_tally():
    t = Table(("Solo",))
    _play_out(t, "Solo", SOLO_PLAN)
    t.turn("Solo", [1, 2, 3, 4, 5], "piracy")
    t.roll("Solo", [6, 6, 6, 5, 5])
    t.do(type="pillage", player="Solo")
    s = t.summary
    assert s.over and s.winners == ("Solo",)
    col = t.sheet("Solo")
    # Crow's Nest 4+8+12+16+20+24 = 84 > 67: Blimey 45
    assert (col["crows_nest_subtotal"], col["blimey_bonus"], col["crows_nest_tally"]) == (84, 45, 129)
    # Bilge 21+26+40+25+30+40+30+26+50+28 = 316, Smooth sailing 10
    assert (col["bilge_boxes"], col["smooth_sailing"], col["bilge_tally"]) == (316, 10, 326)
    assert col["total_plunder"] == 455 == s.scores["Solo"]
    assert s.detail["monikers"] == {"Solo": "Captain"}
    assert SWASH.legal_actions(t.state) == []
    with pytest.raises(IllegalAction, match="over"):
        SWASH.apply(t.state, {"type": "roll", "player": "Solo", "dice": [1, 2, 3, 4, 5]})


def test_perfect_storm_plays_every_column_and_asks_which():
    t = Table(("Ana",), columns=2)
    t.roll("Ana", [1, 1, 1, 3, 3])
    t.refused("several columns", type="score", player="Ana", box="full_boat")
    t.refused("numbered from 1", type="score", player="Ana", box="full_boat", column=3)
    t.score("Ana", "full_boat", column=2)
    assert t.box("Ana", "full_boat", column=1) == 25 and t.box("Ana", "full_boat", column=0) is None
    t.roll("Ana", [1, 1, 1, 3, 3])
    t.score("Ana", "full_boat")  # only column 1 is left open for it
    assert t.box("Ana", "full_boat", column=0) == 25
    turns = 2
    while t.state.phase != "over":
        t.roll("Ana", [1, 2, 3, 5, 6])
        action = next(a for a in SWASH.legal_actions(t.state) if a["type"] == "score")
        t.do(**action)
        if t.state.turn.piracy:
            t.roll("Ana", [1, 1, 1, 1, 1])
            if t.state.turn.piracy:
                t.do(type="pillage", player="Ana")
        turns += 1
    assert turns == 32 and t.state.pirates[0].turns == 32


# -- camera dice, penalties, the solo challenge -------------------------------------------------------


def test_camera_dice_that_are_unsure_must_be_confirmed_before_anything_is_decided():
    t = Table()
    camera = {
        "dice": [{"value": v, "box": [0, 0, 1, 1], "confidence": 0.5, "unsure": v == 3} for v in (1, 1, 1, 3, 3)],
        "unsure": 2,
    }
    t.roll("Ana", None, detections=camera)
    assert t.state.turn.dice.pending is not None and "confirm" in t.summary.prompt
    assert SWASH.legal_actions(t.state)[0] == {"type": "confirm", "player": "Ana", "dice": [1, 1, 1, 3, 3]}
    t.refused("confirm the last roll", type="score", player="Ana", box="full_boat")
    t.refused("confirm the last roll", type="roll", player="Ana", dice=[1, 2, 3, 4, 5])
    t.do(type="confirm", player="Ana", dice=[1, 1, 1, 2, 2])
    assert t.state.turn.dice.dice == (1, 1, 1, 2, 2) and t.state.turn.dice.rolls == 1
    t.score("Ana", "full_boat")


def test_etiquette_and_calculator_penalties():
    t = Table(etiquette_penalty=True, calculator_penalty=3)
    t.do(type="etiquette", player="Ben")
    t.do(type="etiquette", player="Ben")
    t.do(type="calculator", player="Cy")
    assert t.total("Ben") == -2 and t.total("Cy") == -3
    assert {"type": "etiquette", "player": "Ana"} in SWASH.legal_actions(t.state)
    plain = Table()
    plain.refused("not in play", type="etiquette", player="Ben")
    plain.refused("not in play", type="calculator", player="Ben")


def test_solo_challenge_each_sheet_in_turn_and_the_curse_hits_both():
    t = Table(("Ana", "Ben"), solo_challenge=True)
    t.turn("Ana", [1, 1, 1, 3, 3], "full_boat")
    assert t.state.current == 0  # Ana plays her whole sheet first
    t.do(type="curse", player="Ana", target="Ben")
    assert "own turns cursed" in texts(t.events)
    assert t.state.turn.curse == "waiting" and t.state.turn.cursed_by == 0  # Ana's own next turn
    t.roll("Ana", [2, 2, 2, 2])
    t.score("Ana", "four_alike")
    assert t.box("Ana", "four_alike") == 16
    _play_out(t, "Ana", [(d, b) for d, b in SOLO_PLAN if b not in ("full_boat", "four_alike")])
    t.turn("Ana", [1, 2, 3, 5, 6], "piracy")  # scuttled: no run of five
    assert t.state.current == 1 and t.state.turn.curse == "waiting"  # Ben's first turn is cursed
    t.roll("Ben", [5, 5, 5, 5])
    t.score("Ben", "fives")
    assert t.box("Ben", "fives") == 20
