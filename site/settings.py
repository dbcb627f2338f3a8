"""Settings for the paper browser, read from the environment (see README: Configuration)."""

import os
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from database import cache_config, config_from_url, database_config, read_dotenv

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isascii() or not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}")
    return int(value)


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or default


read_dotenv(BASE_DIR / ".env")

DEBUG = env_flag("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is required when DEBUG is off (`make run` writes one into .env)."
        )
    SECRET_KEY = "insecure-development-key-debug-only"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1"])

# With DEBUG off these are production settings: HTTPS only. DJANGO_HTTPS=0 is the explicit
# opt-out for plain-HTTP local use (`make run` sets it).
HTTPS = env_flag("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 31_536_000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Scripts, styles and images from this site only: no inline script or style anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Failed admin logins are throttled per user name and address (django-axes).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "lockout.html"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_filters",
    "axes",
    "papers",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # ETags, and 304 for a repeated request (feed readers poll with If-Modified-Since).
    "django.middleware.http.ConditionalGetMiddleware",
    "papers.errors.ApiMethodErrors",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    "replica.ReplicaReadsMiddleware",
]

ROOT_URLCONF = "urls"
WSGI_APPLICATION = "wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Computed only: the entry points (manage.py, wsgi.py, tests/conftest.py, make) start the
# embedded server when DATABASE_URL is unset.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        **database_config(),
        "CONN_MAX_AGE": env_int("DJANGO_CONN_MAX_AGE", 60),
        "CONN_HEALTH_CHECKS": True,
        # A query of a web request gives up before gunicorn's 30 s timeout gives up on the
        # request (the server would run it on otherwise); manage.py and loads lift it (0).
        # JIT compilation costs far more than these short queries save from it (it took
        # 500 ms of a 600 ms similar-papers query once the planner's estimate grew).
        "OPTIONS": {
            "options": "-c jit=off -c statement_timeout="
            + str(env_int("DJANGO_STATEMENT_TIMEOUT_MS", 10000))
        },
    }
}
# DATABASE_REPLICA_URL: a streaming replica of the primary that serves the public pages
# reads (site/replica.py); unset, everything reads from the primary.
REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "").strip()
REPLICA_PIN_SECONDS = env_int("DJANGO_REPLICA_PIN_SECONDS", 10)
if REPLICA_URL:
    DATABASES["replica"] = {
        **DATABASES["default"],
        **config_from_url(REPLICA_URL, "DATABASE_REPLICA_URL"),
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache (papers/caching.py): this process's memory by default; CACHE_URL (redis://… or
# memcached://host:port) shares one among every app server, and then the sessions live there
# too, backed by the database (cached_db), so that any server can answer any request.
CACHES = {"default": cache_config(os.environ.get("CACHE_URL", ""))}
if os.environ.get("CACHE_URL", "").strip():
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# Cached list pages and facet counts, keyed by the data's version; DJANGO_RESPONSE_CACHE=0
# turns them off (the benchmark measures the work, not the cache).
RESPONSE_CACHE = env_flag("DJANGO_RESPONSE_CACHE", True)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

FIXTURES_DIR = BASE_DIR / "fixtures"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
