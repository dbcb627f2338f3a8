"""During a database outage the API and /healthz answer JSON 503 with Retry-After; pages HTML."""

import json

import pytest
from django.db import connection
from django.test import Client


def during_outage(*urls):
    """Each URL's response while the database cannot be reached."""
    client = Client(raise_request_exception=False)
    real = connection.settings_dict["HOST"], connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["HOST"], connection.settings_dict["PORT"] = "127.0.0.1", "1"
    try:
        return [client.get(url) for url in urls]
    finally:
        connection.close()
        connection.settings_dict["HOST"], connection.settings_dict["PORT"] = real


@pytest.mark.django_db(transaction=True)
def test_api_and_healthz_answer_json_503_with_retry_after_during_an_outage(settings):
    settings.DEBUG = False
    api_list, api_paper, health, page = during_outage(
        "/api/papers/?q=parsing", "/api/papers/1/", "/healthz", "/"
    )
    for response, body in [
        (api_list, {"error": "The database is unavailable; try again."}),
        (api_paper, {"error": "The database is unavailable; try again."}),
        (health, {"status": "database unavailable"}),
    ]:
        assert response.status_code == 503
        assert response["Content-Type"] == "application/json"
        assert response["Retry-After"] == "5"
        assert json.loads(response.content) == body
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")
    assert page["Retry-After"] == "5"
