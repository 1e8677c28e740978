"""``open_scale(url)``: the balance backend is chosen once, by the URL's scheme.

Like pyserial's ``serial_for_url``: ``sim://``, ``serial://PORT``, ``openscale://PORT``,
``hx711://?dout=N&sck=N`` and ``auto://`` are built in; :func:`register_backend` adds
another. Backends are imported only when their scheme is used, so a missing optional
package (RPi.GPIO, say) only matters to the one backend that needs it.
"""

from __future__ import annotations

import importlib
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from companion.scale.base import Scale
from companion.scale.errors import ScaleUsageError

log = logging.getLogger(__name__)

Factory = Callable[["ScaleURL"], Scale]

_BACKENDS: dict[str, str | Factory] = {
    "sim": "companion.scale.sim:open_sim",
    "serial": "companion.scale.serial_scale:open_serial",
    "openscale": "companion.scale.openscale:open_openscale",
    "hx711": "companion.scale.hx711_pi:open_hx711",
    "auto": "companion.scale.auto:open_auto",
}


def register_backend(scheme: str, factory: str | Factory) -> None:
    """Make ``scheme://`` URLs open with ``factory`` (a callable or ``"module:function"``)."""
    _BACKENDS[scheme.lower()] = factory


def schemes() -> list[str]:
    """The URL schemes ``open_scale`` knows."""
    return sorted(_BACKENDS)


@dataclass
class ScaleURL:
    """A parsed scale URL: ``scheme``, ``port`` (host + path) and its ``?key=value`` settings.

    The typed getters raise :class:`ScaleUsageError` with a message naming the setting, and
    :meth:`check_all_used` refuses settings no getter asked for (a typo is never ignored).
    """

    url: str
    scheme: str
    port: str
    params: dict[str, str]
    _used: set[str] = field(default_factory=set)

    @classmethod
    def parse(cls, url: str) -> ScaleURL:
        """Split ``url``.

        Raises:
            ScaleUsageError: not a URL of the form ``scheme://...``.
        """
        if not isinstance(url, str) or "://" not in url:
            raise ScaleUsageError(
                f"{url!r} is not a scale address; use one of "
                + ", ".join(f"{s}://" for s in schemes())
                + " (for example sim:// or serial:///dev/ttyUSB0)"
            )
        parts = urlsplit(url.strip())
        try:
            pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
        except ValueError as exc:
            raise ScaleUsageError(f"the settings after '?' in {url!r} are not key=value pairs") from exc
        params: dict[str, str] = {}
        for key, value in pairs:
            if key in params:
                raise ScaleUsageError(f"{key!r} is given twice in {url!r}")
            params[key] = value
        return cls(url=url, scheme=parts.scheme.lower(), port=parts.netloc + parts.path, params=params)

    def _raw(self, name: str) -> str | None:
        self._used.add(name)
        return self.params.get(name)

    def text(self, name: str, default: str) -> str:
        """A text setting."""
        value = self._raw(name)
        return default if value is None else value

    def number(self, name: str, default: float, lo: float = -math.inf, hi: float = math.inf) -> float:
        """A number setting within [lo, hi]."""
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and lo <= number <= hi):
            raise ScaleUsageError(f"{name}={value!r} in {self.url!r} must be a number from {lo:g} to {hi:g}")
        return number

    def integer(
        self, name: str, default: int, choices: tuple[int, ...] | None = None, lo: int = 0, hi: int = 1 << 30
    ) -> int:
        """A whole-number setting, one of ``choices`` or within [lo, hi]."""
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or (choices is not None and number not in choices) or not lo <= number <= hi:
            allowed = " or ".join(map(str, choices)) if choices else f"a whole number from {lo} to {hi}"
            raise ScaleUsageError(f"{name}={value!r} in {self.url!r} must be {allowed}")
        return number

    def numbers(self, name: str) -> list[float]:
        """A comma-separated list of non-negative numbers (empty if absent)."""
        value = self._raw(name)
        if value is None or not value.strip():
            return []
        out = []
        for item in value.split(","):
            try:
                number = float(item)
            except ValueError:
                number = math.nan
            if not (math.isfinite(number) and number >= 0):
                raise ScaleUsageError(
                    f"{name} in {self.url!r} must be weights in grams separated by commas, not {item!r}"
                )
            out.append(number)
        return out

    def check_all_used(self) -> None:
        """Refuse settings the backend does not know.

        Raises:
            ScaleUsageError: naming the unknown settings and the known ones.
        """
        unknown = sorted(set(self.params) - self._used)
        if unknown:
            known = ", ".join(sorted(self._used)) or "none"
            raise ScaleUsageError(
                f"{self.scheme}:// does not know the setting(s) {', '.join(unknown)} (it knows: {known})"
            )


def _resolve(factory: str | Factory) -> Factory:
    if callable(factory):
        return factory
    module, _, name = factory.partition(":")
    resolved: Factory = getattr(importlib.import_module(module), name)
    return resolved


def open_scale(url: str) -> Scale:
    """Open the balance at ``url`` (``sim://``, ``serial:///dev/ttyUSB0``, ``auto://`` ...).

    Raises:
        ScaleUsageError: the URL is malformed or names an unknown backend or setting.
        ScaleNotFound: nothing answers at that address.
    """
    parsed = ScaleURL.parse(url)
    factory = _BACKENDS.get(parsed.scheme)
    if factory is None:
        raise ScaleUsageError(
            f"unknown kind of balance {parsed.scheme!r} in {url!r}; known: " + ", ".join(f"{s}://" for s in schemes())
        )
    scale = _resolve(factory)(parsed)
    log.info("opened %s balance at %s", parsed.scheme, url)
    return scale
