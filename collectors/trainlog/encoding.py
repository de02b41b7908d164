"""A log's bytes as the UTF-8 text the reader expects: UTF-16 logs (PowerShell's `>` writes them)
transcoded, a UTF-8 BOM dropped, NUL bytes dropped (a `copytruncate`-rotated log starts with a hole of them), and a
file that is not text at all recognised as such."""

from __future__ import annotations

_BOMS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
_UTF8_BOM = b"\xef\xbb\xbf"  # Notepad's and PowerShell 7's mark: not part of the first line
SAMPLE_BYTES = 512  # opening bytes that decide a log's byte order when it has no BOM
NOT_TEXT = "not a text log (binary content): nothing read"


def utf16_order(head: bytes) -> str | None:
    """The UTF-16 byte order of a log's opening bytes (a BOM, or text whose every other byte is
    NUL), or None for a byte-oriented log."""
    if head[:2] in _BOMS:
        return _BOMS[head[:2]]
    sample = head[:SAMPLE_BYTES]
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if len(sample) >= 16 and even < len(sample) // 20 < odd and odd > len(sample) * 0.4:
        return "utf-16-le"
    if len(sample) >= 16 and odd < len(sample) // 20 < even and even > len(sample) * 0.4:
        return "utf-16-be"
    return None


def looks_binary(text: bytes) -> bool:
    """Whether NUL-free opening bytes are mostly undecodable (a checkpoint, an archive)."""
    head = text[:4096].decode("utf-8", "replace")
    return bool(head) and head.count("\ufffd") > len(head) // 10


class LogBytes:
    """Per-log decoder state: the byte order decided on the first bytes, an odd UTF-16 byte held
    back until its pair arrives, and whether the log is text at all."""

    def __init__(self) -> None:
        self.order: str | None = None  # "utf-8", "utf-16-le" or "utf-16-be" once decided
        self.binary = False
        self._odd = b""

    def text(self, block: bytes) -> bytes:
        """The UTF-8 bytes of a block (empty for a binary log), NUL bytes dropped."""
        if self.binary or not block:
            return b""
        if self.order is None:
            self.order = utf16_order(block) or "utf-8"
            block = block[2:] if block[:2] in _BOMS else block.removeprefix(_UTF8_BOM)
        if self.order != "utf-8":
            block, self._odd = self._odd + block, b""
            if len(block) % 2:
                block, self._odd = block[:-1], block[-1:]
            block = block.decode(self.order, "replace").encode("utf-8")
        if b"\x00" in block:
            block = block.replace(b"\x00", b"")
        return block
