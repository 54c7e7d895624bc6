#!/usr/bin/env python3
"""Draws the app's icons (public/icone-192.png, public/icone-512.png):
a corner of a draughts board with a light man on it, full bleed so that
the same file serves as a maskable icon (the man stays in the safe
circle). Standard library only; run again after changing the drawing."""
import math
import struct
import sys
import zlib
from pathlib import Path

DARK = (0x6b, 0x4a, 0x2f)
LIGHT = (0xe9, 0xd6, 0xb0)
MAN = (0xf7, 0xf1, 0xe3)
RIM = (0x2b, 0x21, 0x18)


def pixel(x, y, size):
    """The colour at (x, y): a 4×4 board, a man in the middle."""
    cell = size / 4
    square = DARK if (int(x // cell) + int(y // cell)) % 2 else LIGHT
    centre = size / 2
    r = math.hypot(x + 0.5 - centre, y + 0.5 - centre) / size
    if r < 0.25:
        return MAN if r < 0.22 and not 0.13 < r < 0.15 else RIM
    return square


def png(size):
    rows = b"".join(
        b"\0" + bytes(c for x in range(size) for c in pixel(x, y, size)) for y in range(size)
    )
    chunk = lambda kind, data: (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    public = Path(sys.argv[1] if len(sys.argv) > 1 else "public")
    for size in (192, 512):
        (public / f"icone-{size}.png").write_bytes(png(size))
