"""The hook watchdog (evoplay.games.guard) keeps watching when a thread's stack cannot be read."""
from __future__ import annotations

import sys
import threading
import time

from evoplay.games import guard


def test_the_watchdog_survives_a_frame_it_cannot_read(monkeypatch):
    guard._start_watchdog()
    real = sys._current_frames
    # a stack read while it changes can show something that is not a frame (seen on CPython 3.11)
    monkeypatch.setattr(sys, "_current_frames", lambda: {**real(), -1: {"half": "made"}})
    time.sleep(4 * guard._WATCH_SECONDS)
    monkeypatch.undo()
    assert any(t.name == "evoplay-hook-watchdog" and t.is_alive() for t in threading.enumerate())
