"""Trainers and experiments that reproduce published results (one subpackage per game)."""
