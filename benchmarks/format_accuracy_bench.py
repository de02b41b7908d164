"""First-sight accuracy of the benchmark-output and crash-tail readers on the real-paste corpus.

Each entry of `tests/fixtures/corpus/{bench,crash}/bNN/index.toml` names a file, its source, its
tool and what a careful engineer reads from it (`expect`). A benchmark output is read as
`sessiontui record --from FILE --json` reads it (the same parse and plausibility checks, without
storing); a crash tail as `sessiontui train status --log FILE --json` shows it: the `failure` of
its last crashed event ("none" when it has none). `benchmarks/format_accuracy.py`
imports `score_bench` and `score_crash`; run standalone this prints right/total per family (tool)
and overall, per batch.
Usage: python benchmarks/format_accuracy_bench.py [--batch bNN] [--first-sight] [--misses]
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

from sessiontui.collectors.bench_output import derive_config_name, read_benchmark_output
from sessiontui.collectors.recording import implausible
from sessiontui.collectors.trainlog import read_log

CORPUS = Path(__file__).parents[1] / "tests" / "fixtures" / "corpus"
TOLERANCE = 1e-3  # relative, for every number compared
_FIELDS = ("metric", "concurrency", "batch_size", "accept_length")


def _close(got: object, want: object) -> bool:
    """Whether a read value matches the expected one (numbers within TOLERANCE)."""
    if isinstance(want, bool) or not isinstance(want, int | float):
        return got == want
    return isinstance(got, int | float) and math.isclose(got, want, rel_tol=TOLERANCE)


def _record_problem(record: dict[str, Any], expect: dict[str, Any]) -> str | None:
    """Why the record read differs from what was expected, or None when it matches."""
    if "value" in expect and not _close(record["value"], expect["value"]):
        return f"value {record['value']} != {expect['value']}"
    for name in _FIELDS:
        if name in expect and not _close(record[name], expect[name]):
            return f"{name} {record[name]!r} != {expect[name]!r}"
    for name, want in expect.get("figures", {}).items():
        if not _close(record["figures"].get(name), want):
            return f"figure {name} {record['figures'].get(name)!r} != {want}"
    if present := [name for name in expect.get("absent", []) if name in record["figures"]]:
        return f"figures {', '.join(present)} stored from a cut line"
    if "partial" in expect and set(expect["partial"]) - set(record["partial"]):
        return f"partial {record['partial']} lacks {expect['partial']}"
    if expect.get("partial") == [] and record["partial"]:
        return f"marked partial {record['partial']} though whole"
    return None


def score_bench(entry: dict[str, Any], path: Path) -> tuple[bool, str]:
    """(right, why not) for one benchmark output against its expected reading."""
    expect = entry.get("expect", {})
    parsed = read_benchmark_output(path.read_bytes())
    for record in parsed.records:  # named as `record` names them, which the checks require
        record.config = derive_config_name(record) or path.name
    rejected = implausible(parsed.records) if parsed.records else None
    refused = not parsed.records or rejected is not None
    if refused or expect.get("refused"):
        if refused == bool(expect.get("refused")):
            return True, ""
        why = "; ".join(parsed.problems) or rejected or "no result found"
        return False, f"refused ({why[:120]})" if refused else "stored, expected a refusal"
    records = [record.to_dict() for record in parsed.records]
    if "records" in expect and len(records) != expect["records"]:
        return False, f"{len(records)} records != {expect['records']}"
    index = expect.get("index", 0)
    if index >= len(records):
        return False, f"no record {index} ({len(records)} read)"
    problem = _record_problem(records[index], expect)
    return problem is None, problem or ""


def score_crash(entry: dict[str, Any], path: Path) -> tuple[bool, str]:
    """(right, why not) for one crash tail: the failure of the last crashed event the log reader
    reports (what `train status --log` shows) against the expected kind."""
    want = entry.get("expect", {}).get("failure")
    crashes = [event.failure for event in read_log(path).events if event.kind == "crashed"]
    got = (crashes[-1] if crashes else None) or "none"
    return got == want, "" if got == want else f"read {got!r}, expected {want!r}"


SCORERS: dict[str, Callable[[dict[str, Any], Path], tuple[bool, str]]] = {
    "bench": score_bench,
    "crash": score_crash,
}


def batches(kind: str, only: str | None = None) -> list[Path]:
    """The index files of one corpus kind, oldest batch first (one batch when `only` is given)."""
    folder = CORPUS / kind
    found = sorted(folder.glob("b*/index.toml")) if folder.is_dir() else []
    return [index for index in found if only in (None, index.parent.name)]


def score_entries(index: Path, entries: list[dict[str, Any]],
                  scorer: Callable[[dict[str, Any], Path], tuple[bool, str]]) -> list[tuple[dict[str, Any], bool, str]]:
    """Every entry of one batch with its score; a reader that raises counts the entry wrong, saying how."""
    results = []
    for entry in entries:
        try:
            right, why = scorer(entry, index.parent / entry["file"])
        except Exception as exc:  # noqa: BLE001 - one broken entry must not hide the rest
            right, why = False, f"{type(exc).__name__}: {exc}"
        results.append((entry, right, why))
    return results


def score_batch(kind: str, index: Path) -> list[tuple[dict[str, Any], bool, str]]:
    """Every entry of one batch with its score."""
    return score_entries(index, tomllib.loads(index.read_text()).get("output", []), SCORERS[kind])


def write_first_sight(index: Path, scored: list[tuple[dict[str, Any], bool, str]]) -> None:
    """Record each entry's score as its `first_sight` flag, unless the batch already has them."""
    document = tomlkit.parse(index.read_text())
    outputs = document.get("output", [])
    if any("first_sight" in output for output in outputs):
        print(f"{index.parent.name}: first-sight flags already written, left as they are")
        return
    for output, (_, right, _) in zip(outputs, scored, strict=True):
        output["first_sight"] = right
    index.write_text(tomlkit.dumps(document))


def report(kind: str, index: Path, scored: list[tuple[dict[str, Any], bool, str]],
           misses: bool) -> None:
    """Right/total per family and for the batch, with the first-sight figure when recorded."""
    families: dict[str, list[bool]] = defaultdict(list)
    for entry, right, _ in scored:
        families[entry.get("tool", "?")].append(right)
    right_count = sum(right for _, right, _ in scored)
    flags = [entry["first_sight"] for entry, _, _ in scored if "first_sight" in entry]
    first = f"  first sight {sum(flags)}/{len(flags)}" if flags else ""
    print(f"{kind}/{index.parent.name}: {right_count}/{len(scored)} right{first}")
    for family, rights in sorted(families.items()):
        print(f"  {family:32} {sum(rights)}/{len(rights)}")
    for entry, right, why in scored:
        if misses and not right:
            print(f"  MISS {entry['file']}: {why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", help="score one batch (bNN)")
    parser.add_argument("--first-sight", action="store_true",
                        help="write the first_sight flags of a batch that has none yet")
    parser.add_argument("--misses", action="store_true", help="name each wrong entry and why")
    args = parser.parse_args(argv)
    total = right = 0
    for kind in SCORERS:
        for index in batches(kind, args.batch):
            scored = score_batch(kind, index)
            if args.first_sight:
                write_first_sight(index, scored)
                scored = score_batch(kind, index)
            report(kind, index, scored, args.misses)
            total += len(scored)
            right += sum(ok for _, ok, _ in scored)
    print(f"overall: {right}/{total} right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
