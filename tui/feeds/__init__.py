"""The app's feeds: plain classes run as thread workers that read the world and post messages.

`training` follows the logs, `telemetry` samples the GPUs, the host and the other hosts,
`memory` watches and reads the store, and `clock` is the tick they all wake on. The app composes
the panes, routes the feeds' messages to them, and owns the bindings, screens, ask and palette.
"""
