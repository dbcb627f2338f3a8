"""Production settings: deploy checks, security headers, HTTPS, throttled log-ins, error pages."""

import os
import secrets
import subprocess
import sys

import pytest
from django.db import connection
from django.test import Client

from tests.conftest import PROJECT_DIR

PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "papers.example.org",
}


def manage(*args, env=None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_passes_with_production_variables():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_plain_http_opt_out_turns_off_redirect_cookies_and_hsts():
    code = (
        "from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)"
    )
    on = manage("shell", "--no-imports", "-c", code, env=PRODUCTION_ENV)
    off = manage("shell", "--no-imports", "-c", code, env={**PRODUCTION_ENV, "DJANGO_HTTPS": "0"})
    assert on.stdout.split() == ["True", "True", "True", "31536000"]
    assert off.stdout.split() == ["False", "False", "False", "0"]


@pytest.mark.django_db
def test_security_headers(client):
    response = client.get("/", secure=True)
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_https_redirect_trusts_the_proxy_header(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    response = client.get("/venues/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/venues/"
    response = client.get("/venues/", headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 200
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.django_db
def test_failed_admin_logins_are_throttled(client, django_user_model):
    django_user_model.objects.create_superuser("curator", "c@example.org", "right-password-123")
    for _ in range(4):
        response = client.post("/admin/login/", {"username": "curator", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/admin/login/", {"username": "curator", "password": "wrong"})
    assert response.status_code == 429
    response = client.post(
        "/admin/login/", {"username": "curator", "password": "right-password-123"}
    )
    assert response.status_code == 429
    assert b"Too many failed log-ins" in response.content
    other = Client(REMOTE_ADDR="10.0.0.7")
    response = other.post(
        "/admin/login/", {"username": "curator", "password": "right-password-123"}
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_not_found_page_is_in_the_site_style(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"<h1>Not found</h1>" in response.content
    assert b'class="site-header"' in response.content


@pytest.mark.django_db(transaction=True)
def test_database_down_gives_a_clean_503(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    real_port = connection.settings_dict["PORT"]
    real_host = connection.settings_dict["HOST"]
    connection.close()
    connection.settings_dict["HOST"], connection.settings_dict["PORT"] = "127.0.0.1", "1"
    try:
        response = client.get("/")
    finally:
        connection.close()
        connection.settings_dict["HOST"], connection.settings_dict["PORT"] = real_host, real_port
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"Temporarily unavailable" in response.content
    assert b"Traceback" not in response.content
    assert client.get("/healthz").status_code == 200
