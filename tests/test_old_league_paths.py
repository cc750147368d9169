"""The league's old import paths (``arena.server...``) still import, as the very modules of ``arena.league``."""

import importlib

import pytest

from arena.server import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_is_the_new_one(old):
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_old_imports_give_the_same_classes():
    from arena.server.ladder import LeagueLadder as OldLadder
    from arena.server.league import RANKED
    from arena.server.league import League as OldLeague
    from arena.server.web.client import multipart_body as old_multipart_body

    from arena.league.facade import League
    from arena.league.ladder_loop import LeagueLadder
    from arena.league.web.client import multipart_body

    assert (OldLeague, OldLadder, old_multipart_body, RANKED) == (League, LeagueLadder, multipart_body, "ranked")


def test_only_the_old_paths_are_aliased():
    assert new_name("arena.server.web.serve") == "arena.league.web.serve"
    assert new_name("arena.server.nothing") is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("arena.server.nothing")
