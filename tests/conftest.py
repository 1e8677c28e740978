"""Test-wide set-up: Kivy's environment before anything imports it, and no silent skips."""

from __future__ import annotations

import os
import tempfile

# Kivy reads these at import time; they keep it from parsing pytest's argv, writing
# logs and config into the home directory, or printing to the console.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="purser-kivy-"))

import pytest
from hypothesis import settings

# Property tests judge behaviour, not speed: no per-example deadline (a shared, loaded
# machine makes one example slow now and then). On CI (CI=true) they draw the same examples
# every run, so a red run can be reproduced; locally each run explores new ones.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """With PURSER_NO_SKIP=1 (``make test``, CI) a skipped test is a failure.

    A check that could not run (missing simulator, no window) must never look like a
    check that passed.
    """
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("PURSER_NO_SKIP") == "1" and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped, and skips are failures under PURSER_NO_SKIP=1: {reason}"


@pytest.fixture
def purser(tmp_path):
    """The real command line (a subprocess) on a fresh database in ``tmp_path``."""
    from tests.support.cli import PurserCLI

    return PurserCLI(tmp_path / "purser.db")


@pytest.fixture(scope="session")
def advisor_cache(tmp_path_factory):
    """A cache folder for advisor tables, shared by the whole test run."""
    return tmp_path_factory.mktemp("advisor")


@pytest.fixture(scope="session")
def yahtzee_free(advisor_cache):
    """The optimal-play table of Yahtzee with the free-choice joker (computed once per run)."""
    from companion.advisor.table import load_table
    from companion.games.scoresheet import sheet

    return load_table(sheet("yahtzee", {"joker": "free"}), directory=advisor_cache)
