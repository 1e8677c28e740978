"""Purser: a tablet referee for pirate tabletop games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("purser")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
