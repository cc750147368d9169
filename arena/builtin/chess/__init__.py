"""Chess's plugin (:mod:`.plugin`: the game ``chess``, when python-chess is installed)."""
