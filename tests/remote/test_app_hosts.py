"""The app with [[hosts]]: each host its own group in the GPU pane, remote runs in the Training
pane, an outage said once and shown with since when. Real endpoints on loopback: the recorded
dcgm-exporter payload and serve's own exporter and HTTP server."""

from __future__ import annotations

import re
import socket
from pathlib import Path

from sessiontui.collectors.exporter import Exporter, ServedRun
from sessiontui.collectors.remote import RemoteHost
from sessiontui.tui.app import SessionApp
from sessiontui.tui.config import Config
from sessiontui.tui.metrics_service import start_server
from tests.remote.local_http import serving
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, specforge_run, text_of, until

FIXTURES = Path(__file__).parent.parent / "fixtures" / "remote"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_remote_hosts_in_the_gpu_and_training_panes(tmp_path: Path) -> None:
    exporter = Exporter("node-2")
    exporter.update(None, [ServedRun("eagle3/train", specforge_run("x", step=1300))])
    server = start_server(exporter, "127.0.0.1", 0)
    payload = (FIXTURES / "dcgm_h100_eks.prom").read_bytes()
    try:
        with serving(lambda path: (200, payload)) as (dcgm_url, _):
            config = Config(hosts_refresh_s=0.2, hosts=[
                RemoteHost("node-2", f"http://127.0.0.1:{server.server_address[1]}/metrics"),
                RemoteHost("eks", dcgm_url + "/metrics", "dcgm-exporter"),
                RemoteHost("gone", f"http://127.0.0.1:{closed_port()}/metrics", timeout_s=1),
            ])
            app = SessionApp(tmp_path, store_path=tmp_path / "memory.db", config=config,
                             gpu_collector=SequenceCollector(TWO_GPUS),
                             host_collector=SequenceCollector(HOST))
            async with app.run_test(size=(160, 60)) as pilot:
                await until(pilot, lambda: len(app.gpu_pane.remote) == 3
                            and app.training_pane.cards)
                await pilot.pause()
                shown = text_of(app.gpu_pane)
                card = next(iter(app.training_pane.cards.values()))
                card_text = str(card.render())
                notes = [n.message for n in app._notifications]
    finally:
        server.shutdown()
    lines = shown.splitlines()
    eks = lines.index("eks (dcgm-exporter, ip-100-64-171-120.ec2.internal)")
    first, details = lines[eks + 1], lines[eks + 2]  # each GPU: figures, then clocks
    assert first.startswith(" 0 H100 80GB") and "  0% " in first
    assert "67/—W" in first and "26°C" in first  # power as reported; no limit in this payload
    assert details.strip().startswith("SM — MHz")  # this payload has no clocks
    assert "29°C" in lines[eks + 7] and len([ln for ln in lines if " H100 " in ln]) == 8
    gone = lines.index("gone (sessiontui)")
    assert re.fullmatch(r"unreachable since \d\d:\d\d: connection refused", lines[gone + 1])
    assert lines[lines.index("node-2 (sessiontui)") + 1] == (
        "no GPU metrics from this sessiontui endpoint")
    assert str(card.border_title) == "eagle3/train @ node-2"
    assert "step 1300/10000" in card_text and "running" in card_text
    assert sum("gone: unreachable since" in note for note in notes) == 1
