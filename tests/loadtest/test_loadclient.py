"""The load clients' reading of an answer: a form's fields, as a browser would send them."""

from __future__ import annotations

from loadtest.loadclient import form_fields

BOARD = """
<form id="bet-form" method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t">
  <button type="submit" name="kind" value="player">P</button>
  <input type="submit" name="go" value="x"></form>
<input type="hidden" form="deal-form" name="round" value="42">
<input type='hidden' form='deal-form' name='after' value=''>
<form method="post" id="deal-form"><input type="hidden" name="csrfmiddlewaretoken" value="t">
  <input name="note" value="a &amp; b"><input name="flag" type="checkbox" value=on>
  <input name="bare"><input form="bet-form" name="elsewhere" value="no"></form>
<input type="hidden" name="outside" value="no">
"""


def test_form_fields_are_the_forms_inputs_inside_and_by_form_attribute() -> None:
    assert form_fields(BOARD, "deal-form") == {
        "round": "42",
        "after": "",
        "note": "a & b",
        "flag": "on",
        "bare": "",
    }


def test_a_form_that_is_not_there_has_no_fields() -> None:
    assert form_fields(BOARD, "nope") == {}
    assert form_fields(BOARD, "bet-form") == {"elsewhere": "no"}
