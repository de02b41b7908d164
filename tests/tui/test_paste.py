"""Bracketed paste through the terminal parser: text with escape codes arrives as pasted."""

from __future__ import annotations

from textual import events

from sessiontui.tui.paste import END, START, PasteSafeParser, without_escapes


def parse(*reads: str) -> list[object]:
    parser = PasteSafeParser()
    return [event for data in reads for event in parser.feed(data)]


def test_a_paste_with_colour_codes_is_one_paste_in_order() -> None:
    got = parse(f"{START}AAA \x1b[31mBBB\x1b[0m{END}")
    assert [type(e) for e in got] == [events.Paste]
    assert got[0].text == "AAA BBB"


def test_a_paste_split_over_reads_and_markers_split_too() -> None:
    got = parse(START[:3], START[3:] + "one \x1b]0;title\x07two", "\x1b[1", "mthree" + END[:4],
                END[4:] + "x")
    pastes = [e.text for e in got if isinstance(e, events.Paste)]
    keys = [e.character for e in got if isinstance(e, events.Key)]
    assert pastes == ["one twothree"] and keys == ["x"]


def test_keys_outside_a_paste_are_untouched() -> None:
    got = parse("a\x1b[Ab")
    assert [e.key for e in got if isinstance(e, events.Key)] == ["a", "up", "b"]


def test_osc_clipboard_writes_and_lone_escapes_are_removed() -> None:
    assert without_escapes("x\x1b]52;c;ZXZpbA==\x07y\x1bz") == "xyz"
