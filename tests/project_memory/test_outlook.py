"""Answers that say when a comparison can't be trusted, and answers that look ahead."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.targets import parse_target
from sessiontui.project_memory.trust import TrustRules
from tests.project_memory.seeds import LiveSnapshot

BASE_CMD = ("python -m sglang.launch_server --model-path m --tp 4 --num-continuous-decode-steps 4")
SPEC_CMD = ("python -m sglang.launch_server --model-path m --tp 4 --speculative-algorithm EAGLE3 "
            "--speculative-num-steps 3")


def pair(store: Store, *, base: dict, spec: dict) -> None:
    store.add(Record("benchmark", config="SGLang baseline", value=90.0, baseline=True,
                     concurrency=1, engine="sglang", **base))
    store.add(Record("benchmark", config="SGLang + EAGLE3", value=95.0, accept_length=2.4,
                     concurrency=1, engine="sglang", **spec))


def test_stale_baseline_is_flagged_with_both_versions(store: Store) -> None:
    pair(store, base=dict(engine_version="0.5.1", driver_version="580.159", command=BASE_CMD),
         spec=dict(engine_version="0.5.3", driver_version="590.44", command=SPEC_CMD.replace(
             "--speculative", "--num-continuous-decode-steps 4 --speculative", 1)))
    for question in ("current speedup?", "what's the baseline?"):
        text = ask(store, question).text
        assert "Stale baseline (engine version 0.5.1 vs 0.5.3, driver 580.159 vs 590.44)" in text
        assert f"sessiontui record --baseline -- {BASE_CMD}" in text
        assert "Not like-for-like" not in text  # same tuning: only the feature differs


def test_differing_tuning_is_flagged_and_identical_runs_are_silent(store: Store) -> None:
    pair(store, base=dict(command=BASE_CMD), spec=dict(command=SPEC_CMD))
    text = ask(store, "speedup vs baseline?").text
    assert "Not like-for-like" in text and "--num-continuous-decode-steps: 4 on the baseline" in text
    declared = ask(store, "speedup vs baseline?",
                   rules=TrustRules(feature_flags=("--num-continuous-decode-steps",))).text
    assert "Not like-for-like" not in declared


def test_a_trusted_comparison_says_nothing_more(store: Store) -> None:
    same = dict(engine_version="0.5.3", driver_version="590.44")
    pair(store, base=same | dict(command=BASE_CMD),
         spec=same | dict(command=SPEC_CMD + " --num-continuous-decode-steps 4"))
    text = ask(store, "current speedup?").text
    assert "Stale" not in text and "like-for-like" not in text


def rising_run(steps: int = 7200, total: int = 12000) -> LiveSnapshot:
    rng = random.Random(2)
    positions = {f"acc_{i}": [] for i in range(3)}
    for step in range(50, steps + 1, 50):
        rise = 1 - math.exp(-step / 2500)
        for i, points in enumerate(positions.values()):
            points.append((step, min(1.0, 0.2 + (0.75 - 0.05 * i - 0.2) * rise + rng.gauss(0, 0.01))))
    last = tuple(points[-1][1] for points in positions.values())
    return replace(LiveSnapshot(), step=steps, total_steps=total, acc=last,
                   history={name: tuple(points) for name, points in positions.items()})


def test_will_it_reach_answers_from_the_forecast(store: Store) -> None:
    pair(store, base={}, spec={})
    answer = ask(store, "will it reach 2.5 before the run ends?", snapshots=[rising_run()])
    assert answer.text.startswith("Likely: accept length should reach 2.5")
    assert "Projected accept length at the end of training (step 12000)" in answer.text
    assert answer.figures["projected_band"][0] <= answer.figures["projected_accept_length_end"]
    far = ask(store, "will accept length hit 4 by the end?", snapshots=[rising_run()])
    assert far.text.startswith("Unlikely")


def test_end_of_training_projection_with_targets_and_decision(store: Store) -> None:
    pair(store, base={}, spec={})
    store.add(parse_target("beat 100 tok/s single stream"))
    answer = ask(store, "projected accept length and speedup at the end of training",
                 snapshots=[rising_run()])
    assert "projected speedup then" in answer.text and "worth it if your target is above" in answer.text
    assert "beat 100 tok/s single stream: now 95.0 tok/s (5.0 tok/s to go)" in answer.text
    assert answer.figures["targets"][0]["met"] is False


def test_too_little_history_says_so(store: Store) -> None:
    pair(store, base={}, spec={})
    short = ask(store, "where will accept length end up by the end of training?",
                snapshots=[rising_run(steps=300)])
    assert "not enough history yet" in short.text
    nothing = ask(store, "will it reach 3.0 before the run ends?")
    assert "No training run is followed" in nothing.text


def test_which_questions_look_ahead(store: Store) -> None:
    from sessiontui.project_memory.outlook import looks_ahead
    from sessiontui.project_memory.understanding import understand

    ahead = ["will it reach 3.0 before the run ends?", "projected AL at the end of training",
             "where will tau end up", "is it worth to keep training?", "forecast accept length",
             "can we hit 3 by the end", "speedup at the end of the run?",
             "is the rest of training worth it"]
    not_ahead = ["time to finish?", "when will it finish", "how long until the run ends",
                 "if accept length reaches 3, what tok/s?", "is loss plateauing", "project goal?",
                 "what's our target speedup goal", "projected speedup from the live run"]
    for question in ahead:
        assert looks_ahead(understand(question), question), question
    for question in not_ahead:
        assert not looks_ahead(understand(question), question), question
    assert looks_ahead(understand("targets?"), "targets?", has_targets=True)
