"""The conformance kit: checks a game plugin or a bot against the arena's contracts, for their authors.

``check_game(MyGame)`` and ``check_bot("mybot")`` return a :class:`ConformanceReport` (``assert_ok()``
raises with every failed check); ``arena check game NAME`` and ``arena check bot SPEC`` run them from
the command line. May import core, plugins, play and tournament; nothing above.
"""

from arena.testing.bot_checks import check_bot
from arena.testing.game_checks import check_game
from arena.testing.report import CheckResult, ConformanceReport

__all__ = ["CheckResult", "ConformanceReport", "check_bot", "check_game"]
