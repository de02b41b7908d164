"""`sessiontui record`: wrapping a command, saved output, failures (a wrapped command, stdin bytes
and Ctrl-C through the real binary; reading a paste or a file in-process, through run_main)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import sessiontui_command

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"


def script(tmp_path: Path, fixture: str, tail: str = "") -> Path:
    """A Python script that prints a fixture's text, then runs `tail`."""
    path = tmp_path / "bench.py"
    path.write_text(
        "import sys, time\n"
        f"sys.stdout.write(open({str(FIXTURES / fixture)!r}).read())\n"
        "sys.stdout.flush()\n" + tail
    )
    return path


def listed(run_main) -> list[dict]:
    """What the memory holds (read in-process: the reading is not what these tests are about)."""
    return json.loads(run_main("list", "--json", check=True).stdout)["records"]


def test_wrapped_command_is_streamed_saved_parsed_and_stored(run_cli, run_main, tmp_path: Path) -> None:
    bench = script(tmp_path, "sglang_bench_serving.txt")
    done = run_cli("record", "--json", "--tag", "h200", "--", sys.executable, str(bench))
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)["records"]  # stdout holds only the JSON
    assert "Serving Benchmark Result" in done.stderr  # the live output went to stderr
    assert record["value"] == 681.30 and record["concurrency"] == 1 and record["status"] == "ok"
    assert record["config"] == "sglang Llama-3.1-8B-Instruct c=1" and record["tags"] == ["h200"]
    assert record["exit_code"] == 0 and record["duration_s"] >= 0
    assert str(bench) in record["command"] and record["host"]
    saved = Path(record["output_path"])
    assert saved.parent == tmp_path / "memory" / "outputs"
    assert saved.read_bytes() == (FIXTURES / "sglang_bench_serving.txt").read_bytes()
    assert [r["id"] for r in listed(run_main)] == [record["id"]]


def test_without_json_the_output_and_a_summary_go_to_stdout(run_cli, run_main, tmp_path: Path) -> None:
    bench = script(tmp_path, "llama_bench.md")
    done = run_cli("record", "--config", "llama q4", "--", sys.executable, str(bench), check=True)
    assert "build: 74ade5274" in done.stdout and "stored 5 record(s)" in done.stdout
    assert {r["config"] for r in listed(run_main)} == {"llama q4"}


def test_failing_command_is_one_failed_attempt_without_a_value(run_cli, run_main, tmp_path: Path) -> None:
    bench = script(tmp_path, "vllm_bench_serve.txt", "sys.exit(1)\n")
    done = run_cli("record", "--json", "--", sys.executable, str(bench))
    assert done.returncode == 1
    [record] = json.loads(done.stdout)["records"]
    assert record["status"] == "failed" and record.get("value") is None and record["exit_code"] == 1
    assert "figures" not in record and record["engine"] == "vllm"
    assert Path(record["output_path"]).read_text().startswith("INFO")
    [stored] = listed(run_main)
    assert stored["status"] == "failed"
    assert "FAILED" in run_main("list", check=True).stdout


def test_command_that_cannot_start_is_a_failed_attempt(run_cli, tmp_path: Path) -> None:
    done = run_cli("record", "--json", "--", str(tmp_path / "no-such-benchmark"))
    assert done.returncode == 127
    [record] = json.loads(done.stdout)["records"]
    assert record["status"] == "failed" and "cannot run" in Path(record["output_path"]).read_text()


def test_from_stdin_bytes_with_baseline_and_config(run_cli, run_main) -> None:
    data = (FIXTURES / "sglang_bench_serving.jsonl").read_bytes()
    done = run_cli(
        "record",
        "--from",
        "-",
        "--baseline",
        "--config",
        "eagle3 sweep",
        "--json",
        input=data,
        check=True,
    )
    records = json.loads(done.stdout)["records"]
    assert [r["concurrency"] for r in records] == [1, 4, 16]
    assert all(r["baseline"] and r["config"] == "eagle3 sweep" for r in records)
    assert Path(records[0]["output_path"]).read_bytes() == data
    assert len(listed(run_main)) == 3


def test_from_file_points_at_the_file(run_main) -> None:
    path = FIXTURES / "vllm_save_result.json"
    [record] = json.loads(run_main("record", "--from", str(path), "--json", check=True).stdout)[
        "records"
    ]
    assert record["output_path"] == str(path.resolve()) and record.get("command") is None


def test_garbage_exits_2_names_the_formats_and_stores_nothing(run_cli, run_main, tmp_path: Path) -> None:
    done = run_cli("record", "--from", "-", input=bytes(range(256)) * 8)
    assert done.returncode == 2
    message = done.stderr.decode()
    assert len(message.strip().splitlines()) == 1
    assert "sglang.bench_serving" in message and "llama.cpp.llama-bench" in message
    assert done.stdout == b"" and listed(run_main) == []
    assert not (tmp_path / "memory" / "outputs").exists()


def test_successful_command_with_nothing_recognisable_exits_2(run_cli, run_main) -> None:
    done = run_cli("record", "--", sys.executable, "-c", "print('hello')")
    assert done.returncode == 2 and "known formats" in done.stderr
    assert listed(run_main) == []


def test_needs_a_command_or_from(run_main) -> None:
    assert run_main("record").returncode == 2
    assert run_main("record", "--from", "-", "--", "true", input="").returncode == 2
    assert run_main("record", "--from", "/no/such/file").returncode == 1


def test_ctrl_c_stops_the_command_and_keeps_what_it_printed(
    memory_dir: Path, tmp_path: Path
) -> None:
    bench = script(tmp_path, "llama_bench.md", "time.sleep(120)\nprint('never printed')\n")
    env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir)}
    proc = subprocess.Popen(
        [*sessiontui_command(), "record", "--json", "--", sys.executable, str(bench)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    for line in proc.stderr:  # the live output arrives while the command still runs
        if line.startswith(b"build:"):
            break
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    records = json.loads(out)["records"]
    assert len(records) == 5 and all(r["status"] == "ok" for r in records)
    assert records[0]["exit_code"] == 130 and "interrupted" in records[0]["notes"]
    assert "never printed" not in Path(records[0]["output_path"]).read_text()


def test_wrapped_command_keeps_its_flags_and_engine_environment(run_cli, tmp_path: Path) -> None:
    bench = script(tmp_path, "sglang_bench_serving.txt")
    done = run_cli("record", "--json", "--", sys.executable, str(bench), "--max-concurrency", "1",
                   "--num-continuous-decode-steps", "4",
                   env={"NCCL_ALGO": "Tree", "CUDA_VISIBLE_DEVICES": "0"})
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)["records"]
    assert record["flags"]["--num-continuous-decode-steps"] == "4"
    assert record["flags"]["env:NCCL_ALGO"] == "Tree" and "env:CUDA_VISIBLE_DEVICES" not in record["flags"]
    assert record["engine"] == "sglang" and record.get("engine_version") is None  # not installed here


def test_a_paste_copied_up_to_accept_length_is_stored_partial(run_main) -> None:
    text = (FIXTURES / "sglang_bench_serving.txt").read_text()
    paste = text[: text.index("----------------End-to-End Latency")]  # no latency section
    done = run_main("record", "--json", "--from", "-", input=paste)
    assert done.returncode == 0, done.stderr
    [stored] = json.loads(done.stdout)["records"]
    assert stored["value"] == 681.3 and stored["accept_length"] == 3.21
    assert stored["partial"] == ["latency"] and "ttft_ms_mean" not in stored["figures"]
    [line] = done.stderr.strip().splitlines()
    assert "partial" in line and "latency" in line
    shown = run_main("show", stored["id"], check=True).stdout
    assert any(row.split() == ["partial", "['latency']"] for row in shown.splitlines())


def test_a_paste_cut_before_its_throughput_is_refused_with_the_reason(run_main) -> None:
    text = (FIXTURES / "vllm_bench_serve.txt").read_text()
    done = run_main("record", "--from", "-", input=text[: text.index("Output token throughput")])
    assert done.returncode == 2
    assert "nothing stored" in done.stderr and "output token throughput" in done.stderr
    assert listed(run_main) == []


def test_a_number_broken_by_a_control_character_is_not_stored(run_main) -> None:
    text = (FIXTURES / "sglang_bench_serving.txt").read_text()
    done = run_main("record", "--json", "--from", "-", input=text.replace("681.30", "681\x00.30"))
    assert done.returncode == 2 and "681" not in done.stdout
    assert listed(run_main) == []


def test_many_cut_blocks_give_one_short_problem_line(run_main) -> None:
    text = (FIXTURES / "sglang_bench_serving.txt").read_text()
    cut = text[: text.index("Output token throughput")]  # each block stops before its headline
    done = run_main("record", "--from", "-", input=cut * 499)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert len(line) <= 400 and "499 results incomplete; first:" in line


HOUSE_BENCH = '''[[formats]]
name = "house-bench"
pattern = "=> {value} over {concurrency} streams, ttft {ttft_ms}"
unit = "tok/s"
'''


def test_from_reads_a_format_declared_in_sessiontui_toml(run_cli, tmp_path: Path) -> None:
    # docs/formats.md's third worked example: a house benchmark no built-in reader knows
    paste = "warming up\n=> 1,843.2 over 64 streams, ttft 212ms\ndone\n"  # no unit: unread
    assert run_cli("record", "--from", "-", "--json", input=paste).returncode == 2
    (tmp_path / "sessiontui.toml").write_text(HOUSE_BENCH, encoding="utf-8")
    done = run_cli("record", "--from", "-", "--json", input=paste, check=True)
    [record] = json.loads(done.stdout)["records"]
    assert (record["value"], record["metric"], record["concurrency"]) == (1843.2, "output_tok_s", 64)
    assert record["figures"]["ttft_ms_mean"] == 212 and record["source_format"] == "declared.house-bench"


def test_a_declared_format_leaves_other_outputs_to_the_built_in_readers(
        run_cli, tmp_path: Path) -> None:
    (tmp_path / "sessiontui.toml").write_text(HOUSE_BENCH + "[[formats]]\nname = \"broken\"\n",
                                              encoding="utf-8")
    path = FIXTURES / "vllm_save_result.json"
    done = run_cli("record", "--from", str(path), "--json", check=True)
    assert "[[formats]] broken: needs a pattern" in done.stderr
    [record] = json.loads(done.stdout)["records"]
    assert record["source_format"].startswith("vllm")
