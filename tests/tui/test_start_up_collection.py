"""The garbage collector, off while `sessiontui` builds the app, resumes once start-up is done."""

from __future__ import annotations

import gc

from sessiontui.tui.app import resume_collection


def test_collection_resumes_with_start_up_s_objects_frozen() -> None:
    gc.disable()
    try:
        resume_collection()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0  # start-up's objects are not walked again
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_host_that_kept_collection_on_is_left_alone() -> None:
    """An app run inside another program (tests, `sessiontui demo`) freezes nothing of its host."""
    resume_collection()
    assert gc.isenabled() and gc.get_freeze_count() == 0
