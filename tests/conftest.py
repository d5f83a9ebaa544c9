"""Shared pytest settings: hypothesis profiles sized for a 2-core CI machine; a quiet exit after Ray."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_unconfigure(config):
    """Ray's CLI logger calls ``colorama.init()`` when imported, wrapping the stdout pytest captures; at exit
    colorama would write its reset code to that closed stream and print a traceback. Nothing is left to reset."""
    import atexit
    import sys

    initialise = sys.modules.get("colorama.initialise")
    if initialise is not None:
        atexit.unregister(initialise.reset_all)
