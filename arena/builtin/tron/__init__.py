"""Tron's plugin (:mod:`.plugin`: the games ``tron`` and ``snafu``) and its commands (:mod:`.commands`)."""
