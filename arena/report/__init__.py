"""Reports: rich tables, md/csv/json/latex exports and the HTML report of a stored run.

It may import every layer below it: core, plugins, play, stats, storage and tournament.
"""
