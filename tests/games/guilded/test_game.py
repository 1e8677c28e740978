"""Invariants over random matches: every legal action is accepted, replaying the journal gives
the same state, counts stay in range; and malformed actions never crash the engine."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction, find_game, guilded
from companion.games.guilded import statuses
from companion.games.guilded.game import HANDLERS
from companion.games.guilded.legal import OPEN_FIELDS
from companion.session.replay import replay
from tests.games.guilded.support import Table

SEATINGS = [
    ({"format": "standard"}, ("Ana", "Ben")),
    ({"format": "standard"}, ("Ana", "Ben", "Cy", "Dee")),
    ({"format": "draft"}, ("Ana", "Ben")),
    ({"format": "arena"}, ("Ana", "Ben")),
    ({"format": "arena"}, ("Ana", "Ben", "Cy", "Dee")),
    ({"format": "guild_master"}, ("Ana", "Ben", "Cy")),
    (
        {
            "format": "standard",
            "stack_overflow": "bank",
            "frost_scope": "counters",
            "coin_flips": "table",
            "poison_timing": "before_reduction",
            "fortify_loss": "remove_bonus",
        },
        ("Ana", "Ben"),
    ),
]

#: Kinds of action that move a match along; drawn half the time so matches get somewhere.
CORE = (
    "next_phase",
    "play_merc",
    "attack",
    "move",
    "acquire",
    "plunder",
    "equip",
    "play_treasure",
    "roll",
    "keep",
    "go_first",
    "pillar",
    "champion",
    "decks_ready",
    "reveal",
    "exit",
    "unequip",
)


def vary(action: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """Sometimes change the open-ended fields of a listed action to other plausible values."""
    out = dict(action)
    if not data.draw(st.booleans()):
        return out
    for key in OPEN_FIELDS.get(action["type"], ()):
        if key not in action or not isinstance(action[key], int) or isinstance(action[key], bool):
            continue
        if action["type"] == "loot":
            out[key] = data.draw(st.integers(-4, 4).filter(bool))
        elif action["type"] == "discard" or (action["type"] == "set_merc" and key == "health"):
            continue
        elif key in ("health", "base_health"):
            out[key] = data.draw(st.integers(1, 9))
        elif key in ("count", "cards"):
            out[key] = data.draw(st.integers(1, 3))
        elif key == "stars" and action.get("guild_master"):
            out[key] = data.draw(st.integers(3, 4))  # a Guild Master is a 3 or 4 star mercenary
        else:
            out[key] = data.draw(st.integers(0, 4))
    return out


def check_invariants(state) -> None:
    for seat in state.seats:
        assert seat.vault >= 0 and seat.hand >= 0 and seat.deck >= 0 and seat.warchest >= 0
    ids = [m.id for m in state.mercs]
    assert len(ids) == len(set(ids))
    for m in state.mercs:
        assert 0 < m.health <= m.max_health, m
        assert not state.seats[m.owner].out
        assert len([x for x in state.mercs if x.owner == m.owner]) <= state.settings.max_mercenaries
        for name, stored in m.statuses:
            count = m.status(name)
            status = statuses.STATUSES[name]
            assert stored > 0 and count >= 0
            if status.cap is not None:
                assert count <= status.cap or (status.step and (count - status.cap) % status.step == 0)
            if state.settings.stack_overflow == "drop":
                assert stored == count
    if state.stage == "over":
        assert guilded.legal_actions(state) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seating=st.sampled_from(SEATINGS), seed=st.integers(0, 2**31 - 1))
def test_random_matches_accept_every_legal_action_and_replay_exactly(data, seating, seed):
    rules, players = seating
    t = Table(players, seed=seed, **rules)
    clock = 1_700_000_000
    for _ in range(data.draw(st.integers(0, 60))):
        legal = [a for a in guilded.legal_actions(t.state) if a["type"] not in ("deck", "concede")]
        if not legal:
            break
        # pick a kind of action first, so rare kinds are tried as often as common ones
        kinds = sorted({a["type"] for a in legal})
        moving = [k for k in kinds if k in CORE]
        kind = data.draw(st.sampled_from(moving if moving and data.draw(st.booleans()) else kinds))
        action = vary(data.draw(st.sampled_from([a for a in legal if a["type"] == kind])), data)
        if data.draw(st.booleans()):
            clock += data.draw(st.integers(0, 120))
            action["at"] = clock
        try:
            t.do(action.pop("type"), **action)
        except IllegalAction as exc:  # pragma: no cover - a failure message, not a branch
            raise AssertionError(f"a listed action was refused: {exc}") from exc
        check_invariants(t.state)
    states, _ = replay(find_game("guilded"), t.config, players, seed, t.journal)
    assert states[-1] == t.state
    assert guilded.summary(states[-1]) == guilded.summary(t.state)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
FIELDS = [
    "player",
    "merc",
    "target",
    "tile",
    "to",
    "cards",
    "amount",
    "damage_type",
    "status",
    "count",
    "value",
    "first",
    "with",
    "coin",
    "kind",
    "card",
    "name",
    "health",
    "spaces",
    "at",
    "treasure",
    "opponent",
    "source",
    "untargeted",
    "guild_master",
    "detections",
    "dice",
    "hand",
    "deck",
]
NAMES = st.sampled_from(["Ana", "Ben", "m1", "m2", "Deckhand", "x", ""])


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from([*sorted(HANDLERS), "bogus"]),
    fields=st.dictionaries(st.sampled_from(FIELDS), JSON | NAMES, max_size=6),
    stage=st.sampled_from(["roll", "hands", "play"]),
)
def test_malformed_actions_are_refused_cleanly(kind, fields, stage):
    t = Table(seed=2)
    if stage != "roll":
        t.do("roll", player="Ana", value=6)
        t.do("roll", player="Ben", value=1)
        t.do("go_first", player="Ana", first="Ana")
    if stage == "play":
        t.do("keep", player="Ana")
        t.do("keep", player="Ben")
        t.to("rally")
        t.do(
            "play_merc",
            player="Ana",
            name="Deckhand",
            health=4,
            melee=1,
            move=2,
            tile={"side": "Ana", "row": 1, "col": 1},
        )
        t.put("Ben", "Raider", health=5, bounty=1)
    before = t.state
    try:
        state, events = guilded.apply(before, {"type": kind, **fields})
    except IllegalAction as exc:
        assert str(exc)
        return
    assert isinstance(events, list)
    check_invariants(state)
