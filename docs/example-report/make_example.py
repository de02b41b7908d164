"""Rebuild this folder's report: the demo project's memory plus one concurrency sweep and a second
drafter run (the demo itself is single-stream, with one run), reported as `sessiontui report` does.

Run from the repository root: `.venv/bin/python docs/example-report/make_example.py`.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.tui.demo import seed_records
from sessiontui.tui.report import build_report

HERE = Path(__file__).resolve().parent
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def extra_records() -> list[Record]:
    """The sweep and the second run of `extra.toml`, dated relative to NOW."""
    data = tomllib.loads((HERE / "extra.toml").read_text(encoding="utf-8"))
    records = []
    for kind, entries in data.items():
        for entry in entries:
            fields = dict(entry)
            fields["created_at"] = (NOW - timedelta(days=fields.pop("days_ago"))).isoformat()
            records.append(Record(kind=kind, **fields))
    return records


def main() -> None:
    records = sorted([*seed_records(NOW), *extra_records()], key=lambda r: r.created_at,
                     reverse=True)
    for number, record in enumerate(records):
        record.id = record.id or f"{record.kind[0]}-example{number:02d}"
    report = build_report(records, NOW - timedelta(days=7), now=NOW)
    for written in report.write(HERE / "report.md"):
        print(written.relative_to(HERE.parents[1]))


if __name__ == "__main__":
    main()
