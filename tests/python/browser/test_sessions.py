"""Tests for pelab.browser.sessions: one session per demo name, kept between calls, advanced a
slice at a time, and a clear error before the first reset."""

import pytest

from pelab.browser import sessions
from pelab.browser.sessions import MAX_SLICE_STEPS


class Counter:
    """The smallest session: counts its steps."""

    def __init__(self):
        self.steps_done = 0
        self.done = False

    def advance(self, n):
        self.steps_done += n
        return n

    def summary(self):
        return {"steps_done": self.steps_done}


def test_a_session_is_kept_by_name_and_replaced_by_the_next_reset(monkeypatch):
    monkeypatch.setattr(sessions, "_SESSIONS", {})
    first = sessions.start("toy", Counter())
    assert sessions.advance("toy", 3) is first and first.steps_done == 3
    second = sessions.start("toy", Counter())
    assert sessions.advance("toy", 1) is second and (first.steps_done, second.steps_done) == (3, 1)


def test_advance_checks_the_steps_and_needs_a_reset(monkeypatch):
    monkeypatch.setattr(sessions, "_SESSIONS", {})
    with pytest.raises(ValueError, match=r"^no model to train: call toy_reset first$"):
        sessions.advance("toy", 1, missing="no model to train")
    with pytest.raises(ValueError, match=r"^no experiment to run: call toy_reset first$"):
        sessions.advance("toy", 1)
    sessions.start("toy", Counter())
    for steps in (0, MAX_SLICE_STEPS + 1, 1.5, "1"):
        with pytest.raises(ValueError, match=r"^steps must be an integer from 1 to 200"):
            sessions.advance("toy", steps)
