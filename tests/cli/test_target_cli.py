"""`sessiontui target` and the run-on fields of `bench add`, through the CLI's main (run_main)."""

from __future__ import annotations

import json


def test_target_set_list_rm(run_main) -> None:
    run_main("bench", "add", "--config", "SGLang baseline", "--value", "90", "--baseline",
            "--concurrency", "1", check=True)
    run_main("bench", "add", "--config", "EAGLE3", "--value", "82.3", "--concurrency", "1",
            "--accept-length", "2.1", check=True)
    added = json.loads(run_main("target", "set", "beat", "90", "tok/s", "single", "stream", "--json",
                               check=True).stdout)["records"][0]
    assert (added["metric"], added["value"], added["concurrency"]) == ("output_tok_s", 90.0, 1)
    listed = run_main("target", "list", check=True).stdout
    assert "beat 90 tok/s single stream: now 82.3 tok/s (7.7 tok/s to go)" in listed
    as_json = json.loads(run_main("target", "list", "--json", check=True).stdout)["records"]
    assert as_json[0]["current"] == 82.3 and as_json[0]["met"] is False
    run_main("target", "rm", added["id"], check=True)
    assert "No targets yet" in run_main("target", "list", check=True).stdout


def test_target_without_metric_is_a_one_line_error(run_main) -> None:
    done = run_main("target", "set", "make", "it", "faster")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "no metric" in done.stderr


def test_bench_add_records_what_it_ran_on(run_main) -> None:
    added = json.loads(run_main(
        "bench", "add", "--config", "b", "--value", "90", "--engine", "sglang", "--engine-version",
        "0.5.1", "--driver", "580.159", "--cuda", "12.8", "--gpu-model", "NVIDIA H200",
        "--gpu-count", "4", "--command", "python -m sglang.launch_server --tp 4", "--json",
        check=True).stdout)["records"][0]
    assert added["driver_version"] == "580.159" and added["cuda_version"] == "12.8"
    assert added["gpus"] == ["NVIDIA H200"] * 4 and added["engine_version"] == "0.5.1"
