"""Issue 36: a JSON integer of more than 4,300 digits is a 400 on every JSON endpoint of evoplay serve (it was a 500
with a traceback: Python's ValueError escaped read_json)."""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from evoplay.serve.app import make_app

HUGE = '{"seed": ' + "7" * 5000 + '}'


@pytest.mark.parametrize("path", ["/api/games", "/api/target", "/api/games/x/move", "/api/target/x/check"])
def test_a_json_integer_past_4300_digits_is_a_400(tmp_path, path):
    with TestClient(make_app(tmp_path)) as client:  # a server error would be raised here, not answered
        r = client.post(path, content=HUGE, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "more than 4,300 digits" in r.json()["error"]
