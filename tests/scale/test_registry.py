"""open_scale: choosing the backend by URL."""

from __future__ import annotations

import pytest

from companion.scale import ScaleError, open_scale, register_backend
from companion.scale.registry import ScaleURL, schemes
from companion.scale.sim import SimScale


@pytest.mark.parametrize(
    "url, message",
    [
        ("", "not a scale address"),
        ("/dev/ttyUSB0", "not a scale address"),
        ("telnet://x", "unknown kind of balance"),
        ("sim://?a", "key=value"),
        ("sim://?a=1", "does not know"),
        ("serial://", "needs a port"),
    ],
)
def test_bad_urls_are_explained(url, message):
    with pytest.raises(ScaleError, match=message):
        open_scale(url)


def test_the_builtin_schemes():
    assert {"sim", "serial", "openscale", "hx711", "auto"} <= set(schemes())


def test_a_backend_can_be_added():
    register_backend("bench", lambda url: SimScale(url.url, virtual=True))
    try:
        assert isinstance(open_scale("bench://"), SimScale)
    finally:
        from companion.scale import registry

        registry._BACKENDS.pop("bench")


@pytest.mark.parametrize(
    "url, scheme, port",
    [("serial:///dev/ttyUSB0", "serial", "/dev/ttyUSB0"), ("serial://COM3", "serial", "COM3"), ("SIM://", "sim", "")],
)
def test_ports_are_read_from_the_url(url, scheme, port):
    parsed = ScaleURL.parse(url)
    assert (parsed.scheme, parsed.port) == (scheme, port)
