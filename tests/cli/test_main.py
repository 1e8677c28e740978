"""The command line's skeleton: help and version work without any game or hardware."""

import subprocess
import sys

from companion.cli import main


def test_help_lists_commands(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "games" in out and "app" in out


def test_python_dash_m_runs_the_same_cli():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("purser ")
