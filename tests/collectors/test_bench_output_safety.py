"""A reader's bug costs the user a refusal in one line, never a traceback, and nothing is stored."""

from __future__ import annotations

import pytest

from sessiontui.collectors import bench_output
from sessiontui.collectors.bench_output import read_benchmark_output

# GenAI-Perf's --verbose GPU telemetry (genai-perf's telemetry console exporter, rich nested tables):
# an outer table of one blank header cell whose rows hold the inner tables. It raised IndexError.
TELEMETRY_ONLY = """\
                 NVIDIA GenAI-Perf | Power Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃                                                                  ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│                       GPU Power Usage (W)                        │
│ ┏━━━━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━┓ │
│ ┃ GPU Index ┃   avg ┃   min ┃    max ┃    p99 ┃    p90 ┃   p75 ┃ │
│ ┡━━━━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━┩ │
│ │         0 │ 63.55 │ 21.00 │ 111.39 │ 110.84 │ 105.91 │ 95.16 │ │
│ └───────────┴───────┴───────┴────────┴────────┴────────┴───────┘ │
└──────────────────────────────────────────────────────────────────┘
"""


def test_a_table_of_one_blank_header_cell_is_read_without_error() -> None:
    parsed = read_benchmark_output(TELEMETRY_ONLY)
    assert parsed.records == []  # GPU power is no benchmark result
    assert not any("failed" in problem for problem in parsed.problems)


def test_a_reader_that_raises_refuses_the_output_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str, cut: bool = False) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(bench_output, "_read", broken)
    parsed = read_benchmark_output("Output token throughput (tok/s): 1913.07\n")
    assert parsed.records == []
    assert parsed.problems == ["the reader failed on this output (IndexError: list index out of range); "
                               "nothing stored: please report it with the output"]
