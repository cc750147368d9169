"""The pawn race's plugin (:mod:`.plugin`: the game ``pawnrace`` and its playability study) and its commands
(:mod:`.commands`)."""
