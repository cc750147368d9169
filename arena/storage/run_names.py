"""Names of stored runs: each run's name is its own, so a run can be told from another by its name alone."""

from __future__ import annotations

from arena.storage.store import Store


def unique_run_name(store: Store, name: str) -> str:
    """``name``, or ``name #2``, ``name #3``, ... if a stored run has it already (the same tournament played
    again, say). Call it in the transaction that stores the run, so two processes cannot take the same name."""
    taken = {run.name for run in store.runs()}
    number = 2
    candidate = name
    while candidate in taken:
        candidate = f"{name} #{number}"
        number += 1
    return candidate
