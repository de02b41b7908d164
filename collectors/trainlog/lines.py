"""Turn raw log bytes into text records: `\\n` and `\\r` both end a record, redraws collapse."""

from __future__ import annotations

MAX_RECORD_BYTES = 1 << 20  # longer records are cut: a 1 MB line is a log bug, not a metric


class LineBuffer:
    """Holds the incomplete tail between reads so that a half-written record is parsed only once whole."""

    def __init__(self) -> None:
        self._tail = b""

    @property
    def pending(self) -> int:
        """Bytes held back, waiting for their terminator."""
        return len(self._tail)

    def feed(self, data: bytes) -> bytes:
        """Return the complete records of tail + data (ending at the last terminator), keep the rest."""
        end = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
        if end == 0:
            self._tail = (self._tail + data)[:MAX_RECORD_BYTES]
            return b""
        if self._tail or end < len(data):  # one copy of the block, not two
            block = b"".join((self._tail, memoryview(data)[:end]))
        else:
            block = data
        self._tail = data[end : end + MAX_RECORD_BYTES]
        return block

    def flush(self) -> bytes:
        """Give up waiting: return the tail as a final record (end of a one-shot read)."""
        tail, self._tail = self._tail, b""
        return tail

    def reset(self) -> None:
        """Forget the tail (the file was truncated or replaced)."""
        self._tail = b""


def _last_segment(block: bytes, lo: int, hi: int) -> tuple[int, int]:
    """Bounds of the last non-blank `\r`-separated segment of block[lo:hi] (tqdm clears a bar
    with `\r` + spaces + `\r`; CRLF leaves an empty one)."""
    end = hi
    begin = max(lo, block.rfind(b"\r", lo, end) + 1)
    while begin > lo and not block[begin:end].strip():
        end = begin - 1
        begin = max(lo, block.rfind(b"\r", lo, end) + 1)
    return begin, end


def collapse_redraws(block: bytes, keep_every: int, seen: int) -> tuple[bytes, int]:
    """Drop the progress-bar redraws that a later one in the block overwrites, except about
    every `keep_every`-th (for history); return the text, one record per line, and the count.

    Always kept: the last non-blank segment of each `\r` line (what a terminal shows), the bar
    drawn just before it when that segment is other output (it dates the output), the line's
    first segment when it is other output (a record printed without its newline before the bar
    redrew: the Trainer's last dict), the block's last bar and any bar at 100%. Text glued after
    a dropped bar is kept.
    """
    if b"\r" not in block:
        return block, seen
    last_bar = block.rfind(b"%|")
    pieces: list[bytes] = []
    start = 0
    pos = block.find(b"\r")
    while pos != -1:
        line_start = block.rfind(b"\n", start, pos) + 1
        line_end = block.find(b"\n", pos)
        line_end = len(block) if line_end == -1 else line_end
        seg_start, seg_end = _last_segment(block, line_start, line_end)
        final = block[seg_start:seg_end]
        pieces.append(block[start:line_start])
        if seg_start > line_start:
            body_end = seg_start - 1  # the `\r` before the final segment
            # Redraws of one bar have about the final's length: estimate their number rather
            # than count them, and split the line only when a sample falls inside it.
            count = (body_end - line_start) // (len(final) + 1) + 1
            first = -seen % keep_every
            head = block[line_start:block.find(b"\r", line_start, seg_start)]
            if first and head.strip() and b"%|" not in head:
                pieces.append(head + b"\n")  # output printed before the bar redrew over its line
            if first < count:
                segments = block[line_start:body_end].split(b"\r")
                pieces.extend(s + b"\n" for s in segments[first::keep_every] if s.strip())
            seen += count
            if b"%|" not in final:
                bar_start, bar_end = _last_segment(block, line_start, body_end)
                if block.find(b"%|", bar_start, bar_end) != -1:
                    pieces.append(block[bar_start:bar_end] + b"\n")
        bar = final.find(b"%|")
        if bar != -1 and seg_start + bar < last_bar and not final.startswith(b"100", bar - 3):
            seen += 1
            close = final.find(b"]", bar) + 1
            if seen % keep_every and close:
                final = final[close:]
        pieces.append(final)
        start = line_end
        pos = block.find(b"\r", line_end)
    pieces.append(block[start:])
    return b"".join(pieces), seen
