"""OpenSpiel's games in arena (:mod:`.plugin`): every game pyspiel loads, registered as ``openspiel:NAME``, with
OpenSpiel's own random and MCTS bots (:mod:`.bots`) and ``arena openspiel sweep`` (:mod:`.commands`)."""
