"""Cat and mouse's plugin (:mod:`.plugin`: the game ``catmouse``) and its commands (:mod:`.commands`)."""
