"""HuggingFace `trainer_state.json`: the whole run's log history, rewritten at each checkpoint."""

from __future__ import annotations

import json

from sessiontui.collectors.trainlog.readings import Reading, from_pairs


def is_trainer_state(name: str) -> bool:
    """Files the HF Trainer writes as one JSON document rather than appending lines."""
    return name.endswith("trainer_state.json")


def trainer_state_readings(data: bytes) -> list[Reading]:
    """One reading per `log_history` entry, then the position (`global_step`/`max_steps`)."""
    try:
        state = json.loads(data)
    except ValueError:
        return []
    if not isinstance(state, dict):
        return []
    readings = []
    for entry in state.get("log_history") or []:
        if isinstance(entry, dict):
            pairs = [(str(k), str(v)) for k, v in entry.items()
                     if isinstance(v, int | float) and not isinstance(v, bool)]
            if reading := from_pairs("hf-trainer-state", pairs):
                readings.append(reading)
    step, total = state.get("global_step"), state.get("max_steps")
    if isinstance(step, int):
        readings.append(Reading("hf-trainer-state", {}, step=step,
                                total=total if isinstance(total, int) and total > 0 else None,
                                epoch=state.get("epoch") if isinstance(state.get("epoch"), float
                                                                       | int) else None))
    return readings
