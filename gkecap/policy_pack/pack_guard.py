"""The policy pack's launcher: the pack ends when gkecap ends, however gkecap ends (SIGKILL included).

gkecap cannot stop its children when it is killed with SIGKILL, and a `preexec_fn` (prctl between fork and exec)
is unsafe in a process that runs gRPC threads. So the pack process guards itself, before it loads the pack:

- on Linux, `prctl(PR_SET_PDEATHSIG, SIGKILL)` (prctl(2)): the kernel kills the pack when the thread that
  started it ends (gkecap starts the pack from its main thread); a parent that died before the call is caught
  by comparing the parent's pid with the one gkecap passed;
- everywhere, a thread reads the pack's stdin, a pipe whose only writer is gkecap: end of file means gkecap's
  process is gone (the kernel closes its descriptors however it ended) or closed the pack, and the pack exits.

gkecap runs this file's text with `python -c` in the pack's interpreter (stdlib only: a pack's virtualenv need
not have gkecap installed), with `GKECAP_PACK_PARENT` set to its pid, then the pack exactly as
`python -m pulumi.policy <engine> <program>` would run it.
"""

import os
import sys
import threading

PARENT_ENV = "GKECAP_PACK_PARENT"
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc symbol: the stdin watch below still holds
            pass
    if os.getppid() != parent:  # gkecap was gone before the guard was set
        os._exit(1)


def _watch_stdin() -> None:
    try:
        while os.read(0, 4096):  # gkecap never writes; only the end of file matters
            pass
    except OSError:
        pass
    os._exit(1)


def guard() -> None:
    """Tie this process to gkecap's life when gkecap started it (GKECAP_PACK_PARENT set); else do nothing."""
    parent = os.environ.pop(PARENT_ENV, "")
    if not parent.isdigit():
        return
    _die_with_parent(int(parent))
    threading.Thread(target=_watch_stdin, name="gkecap-parent-watch", daemon=True).start()


if __name__ == "__main__":
    guard()
    import runpy

    runpy.run_module("pulumi.policy", run_name="__main__", alter_sys=True)
