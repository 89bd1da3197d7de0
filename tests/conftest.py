"""Test-wide setup: pygame draws headless (SDL's dummy drivers), as `make test` does;
Ctrl-C is Ctrl-C even when the suite runs as a background job; a local Ray for the
tests that need one."""

import logging
import os
import signal

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# A script's background job (`make test &`) starts with SIGINT ignored, and so would
# every process it starts: the tests that press Ctrl-C (on themselves, or on a server
# they started) would wait forever. Python's own handler is what a terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray with two CPUs, started once for the tests that run on Ray.

    Tests that take it are skipped when the ``ray`` extra is not installed. Its workers
    import this checkout: Ray puts the driver's working directory on their path.
    """
    ray = pytest.importorskip(
        "ray", reason="needs the ray extra: pip install -e '.[ray]'"
    )
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    yield ray
    ray.shutdown()
