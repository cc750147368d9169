"""Learning the pawn race: TD(lambda) self-play, as Kalles and Kanellopoulos (2001) use to judge its design."""
