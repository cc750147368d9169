"""JSON a command prints is standard JSON: a figure that is not a number (the spread of one value, a test on
two equal samples) is ``null``, never ``NaN`` or ``Infinity``, which strict parsers refuse."""

import json
import math

import pytest

from arena.cli.common import emit_table
from arena.core.json_files import finite_json, json_text
from arena.report.row_export import json_text as rows_json


def refuse(constant):
    raise AssertionError(f"{constant} is not JSON")


def test_figures_that_are_not_numbers_are_null_at_any_depth():
    value = {"z": math.nan, "p": 0.5, "rows": [1, -math.inf, {"sd": math.inf, "n": (2, math.nan)}], "name": "x"}
    assert finite_json(value) == {"z": None, "p": 0.5, "rows": [1, None, {"sd": None, "n": [2, None]}], "name": "x"}
    assert json.loads(json_text(value), parse_constant=refuse) == finite_json(value)


def test_a_table_printed_as_json_is_standard_json(capsys):
    emit_table(["strategy", "welch t", "p"], [["WR", math.nan, 0.25], ["PR", 1.5, math.inf]], "json", "t-tests")
    printed = capsys.readouterr().out
    assert "NaN" not in printed and "Infinity" not in printed
    assert json.loads(printed, parse_constant=refuse) == [{"strategy": "WR", "welch t": None, "p": 0.25},
                                                          {"strategy": "PR", "welch t": 1.5, "p": None}]


@pytest.mark.parametrize("number", [0.0, -2.5, 1e300])
def test_finite_figures_are_kept_exactly(number):
    assert json.loads(json_text({"x": number})) == {"x": number}


def test_an_exported_table_is_standard_json_too():
    printed = rows_json(["team", "rating"], [["alice", math.nan], ["bob", 2.5]])
    assert json.loads(printed, parse_constant=refuse) == [{"team": "alice", "rating": None},
                                                          {"team": "bob", "rating": 2.5}]
