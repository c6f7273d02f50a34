"""PNG encoding of pictures that differ from a fixed background in a few places: the board after a move.

Encoding the whole 2-megapixel board on every move (reducing it to a palette, then deflating it) cost most of its
drawing time. A :class:`BandedPng` is made once per background: it fixes the palette (reduced from a sample
picture holding every colour the moves draw) and splits the picture into bands of :data:`BAND_ROWS` rows, each
reduced and deflated once. A picture is then encoded by re-doing only the bands that differ from the background,
and joining the bands' deflate segments into one PNG (each segment is a separate run of deflate blocks ending on
a byte boundary, which deflate allows to concatenate; the zlib checksum covers the whole image).

The result is an ordinary 8-bit palette PNG (PNG specification: IHDR colour type 3, one IDAT, filter 0 on every
row), the same bytes for the same picture.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable

from PIL import Image

#: rows per band: small enough that a piece's move re-encodes little, large enough that deflate still compresses
BAND_ROWS = 16
#: deflate effort (1-9) for the bands a picture changes (quick), and for the background's (once, so the best)
LEVEL = 1
BACKGROUND_LEVEL = 9


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class BandedPng:
    """Encodes pictures of ``background``'s size and mode (``RGB``) against it, with the palette of ``sample``
    reduced to ``colours`` colours (``sample`` should hold every colour that will be drawn)."""

    def __init__(self, background: Image.Image, sample: Image.Image, colours: int) -> None:
        self.palette = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        self.width, self.height = background.size
        self.boxes = [(0, top, self.width, min(top + BAND_ROWS, self.height))
                      for top in range(0, self.height, BAND_ROWS)]
        self.pixels = [background.crop(box).tobytes() for box in self.boxes]
        self.bands = [self._band(self._rows(background, box[1], box[3]), BACKGROUND_LEVEL) for box in self.boxes]
        entries = (self.palette.getpalette() or [0, 0, 0])[:3 * 256]
        self.head = (b"\x89PNG\r\n\x1a\n"
                     + _chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0))
                     + _chunk(b"PLTE", bytes(entries)))

    def _rows(self, image: Image.Image, top: int, bottom: int) -> bytes:
        """Rows ``top`` to ``bottom`` of ``image`` as PNG scanlines: palette indices, each row after filter 0."""
        indices = image.crop((0, top, self.width, bottom)).quantize(palette=self.palette,
                                                                     dither=Image.Dither.NONE).tobytes()
        width = self.width
        return b"".join(b"\x00" + indices[start:start + width] for start in range(0, len(indices), width))

    def _band(self, rows: bytes, level: int) -> tuple[bytes, bytes, tuple[int, int, int]]:
        """(scanlines, their deflate segment at ``level``, their checksum as ``(a, b, length)``) of one band."""
        compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
        checksum = zlib.adler32(rows)
        return rows, compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH), (
            checksum & 0xFFFF, checksum >> 16, len(rows))

    def encode(self, image: Image.Image, changed: Iterable[tuple[float, float]] | None = None) -> bytes:
        """The PNG of ``image`` (the background's size and mode, usually a copy of it drawn on). ``changed``: the
        row ranges ``(top, bottom)`` outside which ``image`` is the background (the caller knows where it drew);
        ``None`` compares every band with the background instead (slower, the same result). Raises
        ``ValueError`` for an image of another size or mode."""
        if image.size != (self.width, self.height) or image.mode != "RGB":
            raise ValueError(f"expected an RGB image of {self.width}x{self.height}")
        count = len(self.boxes)
        if changed is None:
            redo = [image.crop(box).tobytes() != pixels for box, pixels in zip(self.boxes, self.pixels, strict=True)]
        else:
            redo = [False] * count
            for top, bottom in changed:
                for index in range(max(0, int(top) // BAND_ROWS), min(count, int(bottom) // BAND_ROWS + 1)):
                    redo[index] = True
        segments = []
        sums = []
        index = 0
        while index < count:
            if not redo[index]:
                segments.append(self.bands[index][1])
                sums.append(self.bands[index][2])
                index += 1
                continue
            end = index
            while end < count and redo[end]:
                end += 1
            _, segment, checksum = self._band(self._rows(image, self.boxes[index][1], self.boxes[end - 1][3]), LEVEL)
            segments.append(segment)
            sums.append(checksum)
            index = end
        stream = b"\x78\x9c" + b"".join(segments) + b"\x03\x00" + struct.pack(">I", _combined(sums))
        return self.head + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def _combined(sums: list[tuple[int, int, int]]) -> int:
    """The Adler-32 of consecutive pieces from each piece's ``(a, b, length)`` (RFC 1950: ``a`` is 1 plus the byte
    sum, ``b`` the sum of the successive ``a``; both modulo 65521)."""
    a, b = 1, 0
    for a2, b2, length in sums:
        a, b = (a + a2 - 1) % _ADLER, (b + b2 + length * (a - 1)) % _ADLER
    return (b << 16) | a


_ADLER = 65521
