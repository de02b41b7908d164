"""What a user's paste adds to a trainer's printed line (Markdown emphasis, inline code, a dict
missing a brace, a mail client's wrapping) does not stop the line from reading (corpus b45, b46)."""

from __future__ import annotations

import pytest

from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record


@pytest.mark.parametrize(("pasted", "bare"), [
    # tqdm/std.py format_meter's `{n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]`,
    # with its ETA and rate set in bold by the user (huggingface/open-r1#161)
    ("  0%|   | 1/1000 [04:41<**78:02:42, 281.24s/it]**", "  0%|   | 1/1000 [04:41<78:02:42, 281.24s/it]"),
    ("`{'loss': 0.5, 'epoch': 1.0}`", "{'loss': 0.5, 'epoch': 1.0}"),
    ("step 5 __loss 0.25__", "step 5 loss 0.25"),
])
def test_emphasis_or_inline_code_around_any_span_reads_bare(pasted: str, bare: str) -> None:
    assert normalize(pasted) == bare


@pytest.mark.parametrize("line", ["File train.py, in __init__", "2**3 and 4**5", "f(**kwargs, **extra)",
                                  "```python"])
def test_names_powers_and_fences_are_no_emphasis(line: str) -> None:
    assert normalize(line) == line


def test_a_bar_with_bold_in_it_reads_its_position() -> None:
    [reading] = parse_record(normalize("  0%|          | 1/1000 [04:41<**78:02:42, 281.24s/it]**"))
    assert (reading.step, reading.total) == (1, 1000)
