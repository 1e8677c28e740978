"""SparkFun OpenScale text output: the line parser, and the backend on a pseudo-terminal."""

from __future__ import annotations

import os
import threading
import time
import tty

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scale import ScaleNotFound, ScaleProtocolError, open_scale
from companion.scale.openscale import parse_line


@pytest.mark.parametrize(
    "line, grams, ms, raw, temp",
    [
        (b"0.27,kg,\r\n", 270.0, None, None, None),
        (b"1234,0.27,kg,\r\n", 270.0, 1234, None, None),
        (b"1234,0.27,kg,8394825,21.25,\r\n", 270.0, 1234, 8394825, 21.25),
        (b"1.00,lbs,\r\n", 453.59237, None, None, None),
        (b"-0.01,kg,8394000,", -10.0, None, 8394000, None),
        (b"0.50,kg,22.50,", 500.0, None, None, 22.5),
    ],
)
def test_parse_line(line, grams, ms, raw, temp):
    rec = parse_line(line)
    assert rec.grams == pytest.approx(grams)
    assert (rec.ms, rec.raw, rec.temp_c) == (ms, raw, temp)


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"\r\n",
        b"Readings:",
        b"0.27,g,",
        b"abc,kg,",
        b"1,2,3,kg,",
        b"0.27,kg,1,2,3,",
        b"x",
        b"0.27,kg,kg,",
        b"-5,0.2,kg,",
    ],
)
def test_parse_line_refuses_anything_else(line):
    with pytest.raises(ScaleProtocolError):
        parse_line(line)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_parse_line_never_crashes(data):
    try:
        rec = parse_line(data)
    except ScaleProtocolError:
        return
    assert rec.grams == rec.grams  # a number, not NaN


class Board:
    """Writes OpenScale lines into a pseudo-terminal, as the board does over USB."""

    def __init__(self, lines_per_s: float = 20.0) -> None:
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.line = b"0.000,kg,\r\n"
        self.extra = b""
        self._stop = threading.Event()
        self.period = 1.0 / lines_per_s
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        ms = 0
        while not self._stop.is_set():
            ms += int(self.period * 1000)
            out, self.extra = self.extra + f"{ms},".encode() + self.line, b""
            os.write(self.master, out)
            time.sleep(self.period)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def board():
    b = Board()
    yield b
    b.close()


def test_weighs_what_the_board_prints(board):
    board.line = b"0.1234,kg,8394825,21.25,\r\n"
    with open_scale(f"openscale://{board.path}?rate=20&interval=0.1") as scale:
        w = scale.weigh_stable(timeout=10.0)
        assert w.grams == pytest.approx(123.4, abs=1e-6)
        assert w.calibration == scale.calibration(0).id and scale.calibration(0).source == "board"
        assert set(w.raw_counts) == {123400}  # the board's weight in milligrams


def test_garbage_between_lines_changes_nothing(board):
    board.line = b"0.0500,kg,\r\n"
    with open_scale(f"openscale://{board.path}?rate=20") as scale:
        for _ in range(10):
            board.extra = b"\x00\xff garbage, kg ,,\r\n"
            time.sleep(0.05)
        assert scale.weigh_stable(timeout=10.0).grams == pytest.approx(50.0, abs=1e-6)
        assert scale.garbled >= 1


def test_a_port_that_prints_nothing_is_not_an_openscale():
    master, slave = os.openpty()
    try:
        with pytest.raises(ScaleNotFound, match="no OpenScale readings"):
            open_scale(f"openscale://{os.ttyname(slave)}")
    finally:
        os.close(master)
        os.close(slave)


def test_a_missing_port_is_named():
    with pytest.raises(ScaleNotFound, match="no port /dev/purser-none"):
        open_scale("openscale:///dev/purser-none")
