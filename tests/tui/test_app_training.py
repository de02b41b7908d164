"""Pilot tests of the training pane: progress, figures, catch-up, alerts and literal log text."""

from __future__ import annotations

import dataclasses
import re
import threading
from dataclasses import replace
from pathlib import Path

from sessiontui.collectors.trainlog.history import history_for_chart
from sessiontui.project_memory.humanize import significant
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.specdec import accept_length, tau_from_conditional
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.widgets.spark import BARS
from sessiontui.tui.widgets.styling import part_style
from sessiontui.tui.widgets.training_pane import RunCard, accept_length_points
from tests.tui.app_fakes import (
    HOST,
    TWO_GPUS,
    SequenceCollector,
    SequenceFollower,
    crash_event,
    followers,
    specforge_run,
    text_of,
    until,
    until_form,
)


def make_app(tmp_path: Path, factory, logs=("train.log",)) -> SessionApp:
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(TWO_GPUS),
        host_collector=SequenceCollector(HOST), log_paths=[Path(log) for log in logs],
        refresh_s=0.05, follower_factory=factory,
    )


def card_text(card: RunCard) -> str:
    return text_of(card)


def chart(card: RunCard, label: str) -> str:
    """The sparkline drawn after a chart label."""
    charts = [line[len(label):].split()[:1] for line in card_text(card).splitlines()
              if line.startswith(label + " ")]
    return next(drawn[0] for drawn in charts if drawn and set(drawn[0]) <= set(BARS))


def chart_range(card: RunCard, label: str) -> str:
    """The `low–high` label printed after a chart."""
    line = next(line for line in card_text(card).splitlines()
                if line.startswith(label + " ") and chart(card, label) in line)
    return line.split()[-1]


async def test_card_shows_progress_speed_eta_loss_and_accuracy(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    run = specforge_run(str(log), step=1200)
    app = make_app(tmp_path, followers(**{"train.log": [run]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 1200/10000" in card_text(app.training_pane.cards[log]))
        card = app.training_pane.cards[log]
        text = card_text(card)
        assert text.splitlines()[0].endswith(" 12%")  # 1200 of 10000 steps
        # (10000-1200)/2.5 s after the log's last update, as a local time and a span from now
        assert "2.50 step/s" in text and re.search(r"ETA \d\d:\d\d \w+, in 58 min", text)
        assert "loss 1.36↓" in text and "lr 8.00e-05" in text  # 3 significant figures
        assert "acc " + " ".join(f"{a:.2f}↑" for a in run.acc) in text
        assert f"τ {tau_from_conditional(run.acc):.2f}" in text
        loss, tau = chart(card, "loss"), chart(card, "τ")
        assert loss[0] == BARS[-1] and loss[-1] == BARS[0]
        assert tau and tau[0] == BARS[0] and tau[-1] == BARS[-1]  # accuracy rises over the run
        losses = [value for _, value in run.history["loss"]]
        assert chart_range(card, "loss") == f"{significant(min(losses))}–{significant(max(losses))}"


async def test_charts_keep_noise_flat_and_show_their_range(tmp_path: Path) -> None:
    """A loss between 2.30 and 2.31 is a flat line, not full-height bars; its range is printed."""
    log = tmp_path / "train.log"
    run = specforge_run(str(log), step=1200)
    noisy = tuple((step, 2.30 + 0.01 * (i % 2)) for i, (step, _) in enumerate(run.history["loss"]))
    run = dataclasses.replace(run, history={**run.history, "loss": noisy}, loss=noisy[-1][1])
    app = make_app(tmp_path, followers(**{"train.log": [run]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 1200" in card_text(app.training_pane.cards[log]))
        card = app.training_pane.cards[log]
        drawn = chart(card, "loss")
        assert len(set(drawn)) == 2 and BARS[0] not in drawn and BARS[-1] not in drawn
        assert abs(BARS.index(drawn[0]) - BARS.index(drawn[1])) <= 1
        assert chart_range(card, "loss") == "2.30–2.31"


async def test_each_followed_log_gets_its_own_card(tmp_path: Path) -> None:
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    factory = followers(**{"a.log": [specforge_run(str(a), 100)],
                           "b.log": [specforge_run(str(b), 900)]})
    app = make_app(tmp_path, factory, logs=("a.log", "b.log"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(app.training_pane.cards) == 2
                    and "step 900" in card_text(app.training_pane.cards[b]))
        assert "step 100/" in card_text(app.training_pane.cards[a])


class BlockedFollower(SequenceFollower):
    """Stops half-way through its catch-up until the test lets it go on."""

    def __init__(self, snapshots) -> None:
        super().__init__(snapshots)
        self.release = threading.Event()

    def catch_up(self, on_progress) -> None:
        on_progress(0.5)
        self.release.wait(10)
        on_progress(1.0)


async def test_catching_up_a_large_log_shows_progress(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    follower = BlockedFollower([specforge_run(str(log))])
    app = make_app(tmp_path, lambda path: follower)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "catching up: 50%" in card_text(app.training_pane.cards[log]))
        assert card_text(app.training_pane.cards[log]).splitlines()[0].endswith(" 50%")
        follower.release.set()
        await until(pilot, lambda: "step 1200" in card_text(app.training_pane.cards[log]))


async def test_configured_logs_have_their_cards_before_anything_is_read(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    follower = BlockedFollower([specforge_run(str(log))])
    follower.catch_up = lambda on_progress: follower.release.wait(10)  # reads nothing yet
    app = make_app(tmp_path, lambda path: follower)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        card = app.training_pane.cards[log]
        assert card.is_mounted and card.region.height > 0
        assert "catching up: 0%" in card_text(card)
        assert not app.query_one("#no-logs").display
        follower.release.set()


async def test_the_followed_log_keeps_a_run_record(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    app = make_app(tmp_path, followers(**{"train.log": [specforge_run(str(log), 700)]}))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 700" in card_text(app.training_pane.cards[log]))
    with Store(tmp_path / "memory.db") as store:
        run = store.run_for_log(str(log))
    assert run is not None and run.step == 700


async def test_a_crash_alert_shows_the_matching_lessons_fix(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="lesson", title="OOM at long sequence length",
                         symptom="torch.OutOfMemoryError: CUDA out of memory during packing",
                         signature="torch.OutOfMemoryError: CUDA out of memory",
                         fix="lower --max-length to 2048 or enable packing"))
    log = tmp_path / "train.log"
    crashed = specforge_run(str(log), events=(crash_event(),))
    app = make_app(tmp_path, followers(**{"train.log": [crashed]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: any("crashed" in n.message for n in app._notifications))
        alert = next(n for n in app._notifications if "crashed" in n.message)
        assert alert.severity == "error"
        assert ("Seen before: OOM at long sequence length — fix: lower --max-length to 2048"
                in alert.message)


async def test_an_unmatched_failure_offers_a_prefilled_lesson(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    crashed = specforge_run(str(log), events=(crash_event(),))
    app = make_app(tmp_path, followers(**{"train.log": [crashed]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: any("crashed" in n.message for n in app._notifications))
        assert any("press L" in n.message for n in app._notifications)
        await pilot.press("L")
        await until_form(pilot)
        form = app.screen
        assert form.query_one("#field-signature").value == crash_event().signature
        assert "Tried to allocate" in form.query_one("#field-symptom").value


async def test_log_text_is_shown_literally(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    hostile = "[bold red]RuntimeError[/] \x1b[2J\x1b[31mNCCL error\x1b[0m"
    event = crash_event(line=hostile)
    event = type(event)(kind="crashed", message=hostile, line=hostile, at=1.0, step=5)
    app = make_app(tmp_path, followers(**{"train.log": [specforge_run(str(log), events=(event,))]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "NCCL" in card_text(app.training_pane.cards[log])
                    and any("crashed" in n.message for n in app._notifications))
        shown = card_text(app.training_pane.cards[log]).splitlines()[-1]
        assert "[bold red]RuntimeError[/]" in shown
        assert "\x1b" not in shown and "\\x1b[2J" in shown
        await until(pilot, lambda: any("crashed" in n.message for n in app._notifications))
        alert = next(n for n in app._notifications if "crashed" in n.message)
        assert "[bold red]RuntimeError[/]" in alert.message and not alert.markup


async def test_progress_between_saves_is_kept_when_the_app_closes(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    steps = [specforge_run(str(log), step) for step in (100, 200, 300)]
    app = make_app(tmp_path, followers(**{"train.log": steps}))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 300" in card_text(app.training_pane.cards[log]))
        with Store(tmp_path / "memory.db") as store:
            assert store.run_for_log(str(log)).step == 100  # plain progress is saved now and then
    with Store(tmp_path / "memory.db") as store:
        assert store.run_for_log(str(log)).step == 300


async def test_accuracies_outside_0_1_show_no_accept_length_and_break_nothing(
    tmp_path: Path,
) -> None:
    log = tmp_path / "train.log"
    run = specforge_run(str(log))
    percent = replace(run, acc=(72.3, 51.0), history={**run.history, "acc_0": ((100, 72.3),),
                                                     "acc_1": ((100, float("nan")),)})
    app = make_app(tmp_path, followers(**{"train.log": [percent]}))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "acc 72.30" in card_text(app.training_pane.cards[log]))
        assert "τ —" in card_text(app.training_pane.cards[log])
        assert not app._notifications


async def test_a_theme_change_recolours_a_card_that_keeps_its_styles(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    app = make_app(tmp_path, followers(**{"train.log": [specforge_run(str(log), 700)]}))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "step 700" in card_text(app.training_pane.cards[log]))
        card = app.training_pane.cards[log]
        before = card.part("run-card--bar")
        assert before.color is not None and card.part("run-card--bar") is before  # kept
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        after = card.part("run-card--bar")
        assert after.color != before.color
        assert after == part_style(card, "run-card--bar")


def test_the_accept_length_chart_spans_the_whole_run_as_the_loss_chart_does() -> None:
    history = {f"acc_{p}": [(step, 0.5 + step / 2e4 - 0.05 * p) for step in range(0, 5120, 10)]
               for p in range(4)}
    points = accept_length_points(history)
    assert len(points) == 512 and points[0][0] == 0 and points[-1][0] == 5110
    assert points[0][1] == accept_length([0.5, 0.45, 0.4, 0.35])
    taus = history_for_chart(points, 57)
    assert taus[0] < taus[-1] and abs(taus[0] - points[0][1]) < 0.1  # starts at the run's start
    late = {**history, "acc_2": history["acc_2"][:-3]}  # a position logged less lately
    assert accept_length_points(late) == points[:-3]


async def test_a_run_stopped_with_ctrl_c_says_interrupted_not_crashed(tmp_path: Path) -> None:
    """The card's event line and the alert call a Ctrl-C `interrupted`: news, not an error."""
    log = tmp_path / "train.log"
    ctrl_c = replace(crash_event("KeyboardInterrupt"), message="KeyboardInterrupt at step 1200 (interrupted)",
                     signature="KeyboardInterrupt", failure="interrupted")
    stopped = replace(specforge_run(str(log), events=(ctrl_c,)), status="crashed")
    app = make_app(tmp_path, followers(**{"train.log": [stopped]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: any("interrupted" in n.message for n in app._notifications))
        alert = next(n for n in app._notifications if "interrupted" in n.message)
        assert alert.severity == "information" and "press L" not in alert.message
        text = card_text(app.query_one(RunCard))
        assert re.search(r"interrupted\s+KeyboardInterrupt", text), text
