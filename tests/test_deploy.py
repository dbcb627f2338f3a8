"""The image and the compose file: no secrets or data in the image, gunicorn behind the proxy."""

import yaml

from tests.conftest import PROJECT_DIR


def ignored_by_docker() -> set[str]:
    lines = (PROJECT_DIR / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return {line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith("#")}


def test_the_image_leaves_out_secrets_data_and_everything_git_ignores():
    ignored = ignored_by_docker()
    # .env holds the secret key, .pgdata the embedded database (password hashes included).
    assert {".env", ".pgdata", ".venv", ".git"} <= ignored
    git_ignored = {
        line.strip().rstrip("/")
        for line in (PROJECT_DIR / ".gitignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert git_ignored <= ignored


def test_gunicorn_is_reached_only_through_the_proxy():
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text(encoding="utf-8"))
    web, proxy = compose["services"]["web"], compose["services"]["proxy"]
    assert "ports" not in web
    assert web["expose"] == ["8000"]
    assert proxy["image"].startswith("caddy:")
    assert proxy["ports"] == ["80:80", "443:443"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    caddyfile = (PROJECT_DIR / "Caddyfile").read_text(encoding="utf-8")
    assert "reverse_proxy web:8000 {" in caddyfile
    assert "request_buffers" in caddyfile and "response_buffers" in caddyfile
    # Caddy sets X-Forwarded-Proto and trusts no client's: no trusted_proxies, no header_up.
    assert "trusted_proxies" not in caddyfile and "header_up" not in caddyfile
