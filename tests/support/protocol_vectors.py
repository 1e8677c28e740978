"""Reader for firmware/protocol-vectors.txt, the balance protocol's shared test vectors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

VECTORS = Path(__file__).resolve().parents[2] / "firmware" / "protocol-vectors.txt"


@dataclass(frozen=True)
class Vector:
    """One vector: its kind (crc, dev, cmd, enc, grams), input bytes and expectation."""

    kind: str
    data: bytes
    expectation: str
    line: int

    @property
    def id(self) -> str:
        return f"L{self.line}"


def unescape(text: str) -> bytes:
    r"""The bytes an input column stands for (\\ \t \r \n \xHH escapes)."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1]
            if nxt == "x":
                out.append(int(text[i + 2 : i + 4], 16))
                i += 4
                continue
            out += {"\\": b"\\", "t": b"\t", "r": b"\r", "n": b"\n"}[nxt]
            i += 2
            continue
        out += ch.encode("latin-1")
        i += 1
    return bytes(out)


def load(*kinds: str) -> list[Vector]:
    """Every vector of the given kinds, in file order."""
    vectors = []
    for number, text in enumerate(VECTORS.read_text(encoding="ascii").splitlines(), 1):
        if not text or text.startswith("#"):
            continue
        columns = text.split("\t")
        if len(columns) != 3:
            raise ValueError(f"protocol-vectors.txt:{number} does not have three columns")
        if columns[0] in kinds:
            vectors.append(Vector(columns[0], unescape(columns[1]), columns[2], number))
    return vectors


def pairs(text: str) -> dict[str, str]:
    """'a=1 b=2 text=rest of line' -> dict; ``text`` takes the rest of the line."""
    result: dict[str, str] = {}
    rest = text
    while rest:
        key, _, rest = rest.partition("=")
        if key == "text":
            result[key] = rest
            break
        value, _, rest = rest.partition(" ")
        result[key] = value
    return result
