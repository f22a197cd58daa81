"""`--timeout`: a program that never ends stops the plan with the program line it was running."""

import re
import signal
import time

import pytest

from gkecap.engine.deadline import DeadlineExceeded, deadline
from gkecap.plan import plan
from testkit.engine_fixtures import PROGRAMS


def test_a_program_that_never_ends_is_stopped_at_its_line():
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as stopped, deadline(1):
        plan(PROGRAMS / "never_ends", no_policies=True)
    assert time.monotonic() - started < 30
    # the loop's line: `while True:` or its body, wherever the timer caught it
    assert re.match(r"--timeout: the plan did not finish within 1 s; the program was running "
                    r"tests/fixtures/programs/never_ends/__main__\.py:[67];", str(stopped.value))


def test_the_timer_is_disarmed_after_the_block():
    with deadline(0.2):
        pass
    time.sleep(0.3)  # a timer left armed would raise here


def test_no_limit_with_zero():
    # `--timeout 0` is no limit: no interval timer is armed (only entering the block could not fail).
    with deadline(0):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), 1e300, -1.0])
def test_a_limit_that_is_not_a_time_is_refused(seconds):
    from gkecap.engine.deadline import timeout_problem

    assert "is not a time limit" in timeout_problem(seconds)
    with pytest.raises(ValueError, match="is not a time limit"), deadline(seconds):
        pass


def test_the_deadline_is_not_an_exception_a_retry_loop_catches():
    assert not issubclass(DeadlineExceeded, Exception)
