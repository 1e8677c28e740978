"""The match timer, kept pure: time enters as data.

Any action may carry ``"at"``: the wall-clock time it was taken, in seconds (Unix time,
as the session or the tablet's clock gives it). A ``{"type": "clock", "at": T}`` action
carries nothing else, so a screen can tick the timer between moves. The engine never
reads a clock itself, so replaying a journal gives the same result at any later time.

- Draft deck building: its clock starts at the first timed action of the building stage;
  when ``building_minutes`` have passed Purser says so once (building is never cut short).
- The match clock starts at the first timed action after deck building. Time only runs
  forward: an ``"at"`` earlier than one already seen counts as no time passing.
- When the match time is up (not in casual play) Purser says so once; with
  ``time_up=most_loot`` the turn in play is finished and the game ends at the end of its
  End phase on loot (see :mod:`.outcome`); if no turn is in play the match ends at once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.games.guilded import outcome
from companion.games.guilded.state import GuildedState


def read_at(action: Mapping[str, Any]) -> float | None:
    """The action's ``"at"`` time in seconds, if it has one.

    Raises:
        IllegalAction: ``"at"`` is not a finite, non-negative number.
    """
    if "at" not in action or action["at"] is None:
        return None
    at = action["at"]
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at) or at < 0:
        raise IllegalAction(f'"at" is the time in seconds (a number such as 1718000000.5), not {shown(at)}')
    return float(at)


def elapsed(state: GuildedState) -> float:
    """Seconds of match time used, as of the last timed action."""
    if state.clock_start is None or state.clock_now is None:
        return 0.0
    return max(0.0, state.clock_now - state.clock_start)


def building_elapsed(state: GuildedState) -> float:
    if state.building_start is None or state.clock_now is None:
        return 0.0
    return max(0.0, state.clock_now - state.building_start)


def observe(state: GuildedState, at: float | None, events: list[Event]) -> GuildedState:
    """Move the clocks to ``at`` (after the action was applied) and announce limits reached."""
    if at is None:
        return state
    now = at if state.clock_now is None else max(state.clock_now, at)
    state = replace(state, clock_now=now)
    if state.stage == "over":
        return state
    settings = state.settings
    if state.stage == "building":
        if state.building_start is None:
            state = replace(state, building_start=at)
        limit = settings.building_s
        if limit is not None and not state.building_over and building_elapsed(state) >= limit:
            events.append(
                event("building_time", f"Deck building time ({limit // 60} minutes) is up.", minutes=limit // 60)
            )
            state = replace(state, building_over=True)
        return state
    if state.clock_start is None:
        state = replace(state, clock_start=at)
    limit = settings.timer_s
    if limit is None or state.time_up or elapsed(state) < limit:
        return state
    state = replace(state, time_up=True)
    if settings.time_up == "announce":
        events.append(event("time_up", f"Match time ({limit // 60} minutes) is up.", minutes=limit // 60))
        return state
    if state.stage == "play":
        events.append(
            event(
                "time_up",
                f"Match time ({limit // 60} minutes) is up: finish this turn; the game "
                "then ends and the side with the most loot wins it.",
                minutes=limit // 60,
            )
        )
        return state
    events.append(event("time_up", f"Match time ({limit // 60} minutes) is up between games.", minutes=limit // 60))
    return outcome.end_match(state, events)
