"""`sessiontui mcp` driven as a subprocess by the MCP SDK's own stdio client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import sessiontui_command

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import CallToolResult

FIXTURES = Path(__file__).parents[1] / "fixtures"
READING = {"ask", "list_records", "show_record", "train_status", "speedup", "list_targets"}
WRITING = {"add_benchmark", "add_lesson", "add_note", "record_output", "set_target"}


@contextlib.asynccontextmanager
async def connect(memory_dir: Path, cwd: Path, *args: str) -> AsyncIterator[ClientSession]:
    """A client session with a fresh `sessiontui mcp ARGS` server for this project."""
    # The SDK is imported here, not at the top: importing it costs a second of CPU, which every
    # test worker would pay while collecting, though one of them runs these tests.
    from mcp import ClientSession, StdioServerParameters, stdio_client

    command, *prefix = sessiontui_command()
    params = StdioServerParameters(
        command=command, args=[*prefix, "mcp", *args], cwd=cwd,
        env={"SESSIONTUI_DIR": str(memory_dir), "PATH": os.environ["PATH"]},
    )
    # errlog: the SDK's default binds sys.stderr at its import, which is pytest's capture here
    async with stdio_client(params, errlog=sys.__stderr__) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@contextlib.asynccontextmanager
async def connect_in_process(cwd: Path, *args: str) -> AsyncIterator[ClientSession]:
    """A client session with the server `sessiontui mcp ARGS` runs, here in this process and
    over memory streams (the same JSON-RPC messages and handshake as on stdio): for what the
    tools answer, where a second process (half a second of CPU to start) is not the point."""
    from mcp import Client

    from sessiontui.tui.commands import mcp_tools

    read_only = "--read-only" in args
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        patch.setattr(mcp_tools, "_server_read_only", read_only)  # as serve() sets it
        async with Client(mcp_tools.MemoryServer(read_only=read_only), mode="legacy") as client:
            yield client.session


@pytest.fixture
def server(memory_dir: Path, tmp_path: Path):
    """`sessiontui mcp ARGS` as a child process on stdio."""
    return lambda *args: connect(memory_dir, tmp_path, *args)


@pytest.fixture
def served(memory_dir: Path, tmp_path: Path):
    """The same server in this process (the memory is found as the child finds it)."""
    return lambda *args: connect_in_process(tmp_path, *args)


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    return result.content[0].text


def without_event_times(status: dict) -> dict:
    """A status whose events keep only what the log says (their times and wording count from
    the moment the log was read)."""
    return {**status, "events": [(e["kind"], e["step"], e["lessons"]) for e in status["events"]]}


def seed_issue_numbers(run_cli) -> None:
    """The numbers from the original issue: two single-stream baselines and one EAGLE-3 run."""
    run_cli("bench", "add", "--config", "vLLM baseline", "--value", "82.5", "--baseline",
            "--concurrency", "1", check=True)
    run_cli("bench", "add", "--config", "SGLang baseline", "--value", "90.0", "--baseline",
            "--concurrency", "1", check=True)
    run_cli("bench", "add", "--config", "SGLang+EAGLE3", "--value", "82.3", "--accept-length", "2.1",
            "--concurrency", "1", check=True)


async def test_lists_every_tool_with_a_typed_schema_and_one_line_description(server) -> None:
    from sessiontui.collectors.bench_output import KNOWN_FORMATS

    async with server() as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == READING | WRITING
    for tool in tools.values():
        assert tool.description and "\n" not in tool.description
        assert tool.input_schema["type"] == "object"
        assert tool.annotations.read_only_hint is (tool.name in READING)
    bench = tools["add_benchmark"].input_schema
    assert set(bench["required"]) == {"config", "value"}
    assert bench["properties"]["value"]["type"] == "number"
    assert {"metric", "unit", "baseline", "concurrency", "accept_length", "draft_tokens", "notes",
            "tags"} <= set(bench["properties"])
    assert tools["ask"].input_schema["required"] == ["question"]
    assert tools["record_output"].input_schema["required"] == ["text"]
    assert set(tools["add_lesson"].input_schema["required"]) == {"title", "symptom", "cause", "fix"}
    kinds = tools["list_records"].input_schema["properties"]["kind"]["anyOf"][0]["enum"]
    assert kinds == ["benchmark", "lesson", "note", "run"]
    assert all(name in tools["record_output"].description for name in KNOWN_FORMATS)  # every format it reads


async def test_ask_gives_the_number_to_beat_as_the_cli_does(served, run_main) -> None:
    seed_issue_numbers(run_main)
    async with served() as session:
        result = await session.call_tool("ask", {"question": "what's the baseline?"})
    assert not result.is_error
    answer = json.loads(text_of(result))
    assert result.structured_content is None  # one copy of the result, one shape
    assert answer["intent"] == "baseline"
    assert answer["figures"]["reference_value"] == 90.0
    assert "90.0" in answer["text"].splitlines()[0]
    cli = json.loads(run_main("ask", "--json", "what's the baseline?", check=True).stdout)
    assert answer == cli


async def test_record_output_stores_what_sessiontui_list_then_shows(served, run_main, memory_dir) -> None:
    output = (FIXTURES / "bench" / "sglang_bench_serving.txt").read_text()
    async with served() as session:
        result = await session.call_tool("record_output", {"text": output, "config": "sglang eagle3 c=1"})
        assert not result.is_error, text_of(result)
        [stored] = json.loads(text_of(result))["records"]
        assert not any(v in (None, "", [], {}) for v in stored.values())  # compact records
        shown = await session.call_tool("show_record", {"id": stored["id"]})
        await session.call_tool("add_note", {"text": "a second record"})
        listed = await session.call_tool("list_records", {})
    assert stored["value"] == pytest.approx(681.30) and stored["accept_length"] == pytest.approx(3.21)
    assert stored["config"] == "sglang eagle3 c=1" and "via:mcp" in stored["tags"]
    assert stored["host"] and Path(stored["output_path"]).read_text() == output
    assert json.loads(text_of(shown))["records"] == [stored]
    assert json.loads(text_of(listed)) == json.loads(run_main("list", "--json", check=True).stdout)
    listed = run_main("list", "--tag", "via:mcp", check=True).stdout
    assert stored["id"] in listed and "sglang eagle3 c=1" in listed
    assert json.loads(run_main("show", stored["id"], "--json", check=True).stdout)["records"] == [stored]


async def test_bad_calls_are_one_sentence_tool_errors_and_the_server_keeps_serving(served, run_main) -> None:
    async with served() as session:
        unknown = await session.call_tool("show_record", {"id": "b-0000000000"})
        not_a_number = await session.call_tool("add_benchmark", {"config": "x", "value": "abc"})
        negative = await session.call_tool("add_benchmark", {"config": "x", "value": 1, "concurrency": -4})
        implausible = await session.call_tool("add_benchmark", {"config": "x", "value": 0})
        no_text = await session.call_tool("record_output", {"text": "loss went down, nothing to parse"})
        no_log = await session.call_tool("train_status", {"log": "/nonexistent/train.log"})
        bad_rate = await session.call_tool("speedup", {"acc": [1.7, 0.5]})
        still = await session.call_tool("add_note", {"text": "still serving"})
    for result in (unknown, not_a_number, negative, implausible, no_text, no_log, bad_rate):
        assert result.is_error
        message = text_of(result)
        assert "\n" not in message and "Traceback" not in message and "Error executing" not in message
    assert text_of(unknown).startswith("no record with id b-0000000000")
    assert "value" in text_of(not_a_number) and "'abc'" in text_of(not_a_number)
    assert "concurrency" in text_of(negative)
    assert text_of(implausible).startswith("value:")  # the record module's rule, as the CLI says it
    assert text_of(no_text).startswith("no benchmark result found")
    assert "/nonexistent/train.log" in text_of(no_log)
    assert "1.7" in text_of(bad_rate)
    assert not still.is_error
    notes = json.loads(run_main("list", "--json", check=True).stdout)["records"]
    assert [r["text"] for r in notes] == ["still serving"]


async def test_read_only_exposes_only_reading_tools_and_refuses_writes(served, memory_dir) -> None:
    async with served("--read-only") as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        refused = await session.call_tool("add_note", {"text": "should not be stored"})
        asked = await session.call_tool("ask", {"question": "what's the baseline?"})
        shown = await session.call_tool("show_record", {"id": "n-1"})
        listed = await session.call_tool("list_records", {})
    assert names == READING
    assert refused.is_error and "--read-only" in text_of(refused)
    assert not asked.is_error and not listed.is_error and shown.is_error
    assert not (memory_dir / "memory.db").exists()


async def test_writes_are_stamped_with_git_and_host_and_tagged(served, run_main, tmp_path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "-b", "work"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], cwd=tmp_path, check=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True,
                          check=True).stdout.strip()
    async with served() as session:
        result = await session.call_tool("add_lesson", {
            "title": "Triton smem", "symptom": "OutOfResources: shared memory, Required: 131072",
            "cause": "BLOCK_N=128", "fix": "num_stages=2", "tags": ["drafter"],
        })
    [lesson] = json.loads(text_of(result))["records"]
    assert lesson["git_commit"] == head and lesson["git_branch"] == "work" and lesson["host"]
    assert lesson["tags"] == ["drafter", "via:mcp"]
    tagged = json.loads(run_main("list", "--tag", "via:mcp", "--json", check=True).stdout)["records"]
    assert [r["id"] for r in tagged] == [lesson["id"]]


async def test_train_status_and_speedup_match_the_cli(served, run_main, tmp_path) -> None:
    # A copy last written an hour ago: its run reads as stalled, an event to compare, whatever
    # the age of the checkout.
    log = str(tmp_path / "train.log")
    shutil.copyfile(FIXTURES / "trainlog" / "specforge_v2.log", log)
    an_hour_ago = time.time() - 3600
    os.utime(log, (an_hour_ago, an_hour_ago))
    async with served() as session:
        status = await session.call_tool("train_status", {"log": log})
        projected = await session.call_tool(
            "speedup", {"acc": [0.8, 0.6, 0.5], "draft_overhead": 0.1, "baseline_value": 50})
    cli_status = json.loads(run_main("train", "status", "--log", log, "--json", check=True).stdout)
    assert without_event_times(json.loads(text_of(status))) == without_event_times(cli_status)
    assert cli_status["events"]  # the stalled run's event, compared above
    cli = run_main("speedup", "--acc", "0.8,0.6,0.5", "--draft-overhead", "0.1", "--baseline-value", "50",
                  "--json", check=True)
    assert json.loads(text_of(projected)) == json.loads(cli.stdout)
    assert json.loads(text_of(projected))["accept_length"] == pytest.approx(1 + 0.8 + 0.48 + 0.24)


async def test_two_clients_and_a_cli_writer_at_once_lose_nothing(server, run_main, memory_dir) -> None:
    per_client, per_cli = 20, 10

    async def client_writes(name: str) -> None:
        async with server() as session:
            for i in range(per_client):
                result = await session.call_tool("add_note", {"text": f"{name} {i}"})
                assert not result.is_error, text_of(result)

    def cli_writes() -> None:
        for i in range(per_cli):
            run_main("note", "add", f"cli {i}", check=True)

    await asyncio.gather(client_writes("a"), client_writes("b"), asyncio.to_thread(cli_writes))
    listed = json.loads(run_main("list", "--kind", "note", "--json", check=True).stdout)["records"]
    texts = {r["text"] for r in listed}
    expected = {f"{n} {i}" for n in "ab" for i in range(per_client)} | {f"cli {i}" for i in range(per_cli)}
    assert texts == expected


async def test_unknown_arguments_are_refused_with_a_suggestion(served, run_main) -> None:
    async with served() as session:
        typo = await session.call_tool("add_note", {"text": "x", "tag": ["a"]})
        extra = await session.call_tool("list_records", {"kind": "note", "colour": "red"})
    assert typo.is_error and text_of(typo).startswith("add_note: unknown argument(s) tag (did you mean tags?)")
    assert extra.is_error and "colour" in text_of(extra)
    assert json.loads(run_main("list", "--json", check=True).stdout)["records"] == []


async def test_targets_are_set_and_listed_as_the_cli_does(served, run_main) -> None:
    async with served() as session:
        added = await session.call_tool("set_target", {"text": "beat 90 tok/s single stream"})
        listed = await session.call_tool("list_targets", {})
        vague = await session.call_tool("set_target", {"text": "be fast"})
    [target] = json.loads(text_of(added))["records"]
    assert (target["kind"], target["metric"], target["value"], target["concurrency"]) == (
        "target", "output_tok_s", 90.0, 1)
    assert "via:mcp" in target["tags"] and vague.is_error
    cli = json.loads(run_main("target", "list", "--json", check=True).stdout)
    assert json.loads(text_of(listed)) == cli and cli["records"][0]["target"]["id"] == target["id"]


async def test_read_only_writes_nothing_and_reads_only_the_project(server, memory_dir, run_main,
                                                                   tmp_path) -> None:
    seed_issue_numbers(run_main)
    outside = tmp_path.parent / f"{tmp_path.name}-secret.log"
    outside.write_text("step 1 loss 2.0 API_KEY=hunter2\n")
    inside = tmp_path / "train.log"
    shutil.copyfile(FIXTURES / "trainlog" / "specforge_v2.log", inside)
    (tmp_path / "sessiontui.toml").write_text('logs = ["train.log"]\n')
    async with server("--read-only") as session:
        asked = await session.call_tool("ask", {"question": "current speedup?"})
        secret = await session.call_tool("train_status", {"log": str(outside)})
        ours = await session.call_tool("train_status", {"log": str(inside)})
        projected = await session.call_tool("speedup", {"log": str(outside)})
    assert not asked.is_error and not ours.is_error
    for refused in (secret, projected):
        assert refused.is_error and "hunter2" not in text_of(refused) and "--read-only" in text_of(refused)
    assert not (memory_dir / "ask_state.json").exists()
    run_main("ask", "current speedup?", check=True)  # the same question, asked where it may write
    assert (memory_dir / "ask_state.json").exists()
