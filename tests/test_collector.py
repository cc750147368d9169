"""The garbage collector is held off for a block and restored as it was."""

import gc

import pytest

from arena.core.collector import collector_paused


def test_the_collector_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_it_comes_back_on_after_an_error():
    with pytest.raises(ValueError, match="stop"), collector_paused():
        raise ValueError("stop")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
