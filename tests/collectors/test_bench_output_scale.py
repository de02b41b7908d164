"""Reading an output of many result blocks is linear in its size: every search for the settings
printed before a block (Namespace, server args, flags) is one pass over the output, not one per
block (1,000 blocks took 6.6 s and 5,000 took 187 s when each block searched from the start)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import common, parse_benchmark_output

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"


@pytest.mark.parametrize("name", ["sglang_bench_serving.txt", "vllm_bench_serve.txt",
                                  "trtllm_bench_streaming.txt"])
def test_each_pattern_is_searched_once_however_many_blocks(monkeypatch, name: str) -> None:
    built: list[str] = []

    class Counted(common._Matches):
        def __init__(self, text, pattern) -> None:
            built.append(pattern.pattern)
            super().__init__(text, pattern)

    monkeypatch.setattr(common, "_Matches", Counted)
    block = (FIXTURES / name).read_text()
    few = len(parse_benchmark_output(block * 3))
    searches_for_few = len(built)
    built.clear()
    many = len(parse_benchmark_output(block * 60))
    assert (few, many) == (3, 60)
    assert len(built) == searches_for_few and len(set(built)) == len(built)


def test_the_last_match_before_an_offset_is_the_one_a_scan_finds() -> None:
    text = "a=1\nNamespace(x=1)\nb\nNamespace(x=2)\nc\n"
    pattern = common.re.compile(r"Namespace\((x=\d)\)")
    for end in range(len(text) + 1):
        scanned = [m for m in pattern.finditer(text, 0, end)]
        found = common.last_match(text, pattern, end)
        assert (found.group(1) if found else None) == (scanned[-1].group(1) if scanned else None)
