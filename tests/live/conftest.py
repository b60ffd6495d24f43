import pytest

from live import bus as bus_module
from live.bus import MemoryBus


@pytest.fixture
def memory_bus(monkeypatch, settings):
    """The streams on a bus of the test's own, in memory; short responses so that a test reads them whole."""
    the_bus = MemoryBus()
    monkeypatch.setattr(bus_module, "the_bus", lambda: the_bus)
    monkeypatch.setattr("live.publish._resting_until", 0.0)
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    settings.LIVE_STREAM_SECONDS = 0.3
    return the_bus
