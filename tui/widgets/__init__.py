"""The panes and small widgets of the sessiontui app."""
