"""Taikai settings, read from the environment in this one module.

Environment variables:

* ``DATABASE_URL``      database (default: SQLite file ``db.sqlite3`` in the project, the embedded default)
* ``CELERY_BROKER_URL`` Celery broker; unset means tasks run in-process (eager)
* ``CELERY_TASK_DEFAULT_QUEUE`` the queue workers consume (default ``celery``)
* ``CACHE_URL``         ``redis://...`` for a shared cache; unset means local memory
* ``LIVE_BUS_URL``      ``redis://...`` the bus of the live streams between web processes (default: ``CACHE_URL``;
  unset means one process's memory, the embedded default)
* ``SECRET_KEY``        required when ``TAIKAI_PRODUCTION`` is set; generated for local use otherwise
* ``DEBUG``             ``1``/``true`` to enable debug pages (never in production)
* ``ALLOWED_HOSTS``     comma-separated host names
* ``TAIKAI_PRODUCTION`` ``1`` enables the hardened production mode (HTTPS, secure cookies, HSTS)
"""

from __future__ import annotations

import os
import secrets
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from ops.logging_json import logging_config
from ops.sentry import init_sentry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_secret_key() -> str:
    """A per-checkout key for local use, generated once and kept out of the repository."""
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


PRODUCTION = env_flag("TAIKAI_PRODUCTION")
DEBUG = env_flag("DEBUG", default=not PRODUCTION)

if PRODUCTION:
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be set (50+ characters) when TAIKAI_PRODUCTION is on")
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off when TAIKAI_PRODUCTION is on")
else:
    SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "core",
    "accounts",
    "players",
    "scoring",
    "tournament",
    "live",
    "idempotency",
    "registration",
    "seasons",
    "profiles",
    "gamelogs",
    "archive",
    "ops",
]

MIDDLEWARE = [
    "ops.middleware.OpsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.NulCharacterMiddleware",
    "config.middleware.ApiBodySizeMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.AccountLanguageMiddleware",
    "idempotency.middleware.IdempotencyMiddleware",
    "registration.site.SiteAddressMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.TaikaiErrorMiddleware",
    "config.middleware.ResetTimeZoneMiddleware",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:my_tables"
LOGOUT_REDIRECT_URL = "tournament:event_list"

if PRODUCTION:
    # Static files served by the application itself behind gunicorn (no separate web server needed).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if os.environ.get("TAIKAI_SERVED_BY") == "asgi":
    # Under ASGI each request's synchronous part runs in a thread of its own: a connection kept open for
    # the next request would be kept by a thread that is gone. Connect per request (put a pool such as
    # PgBouncer in front of PostgreSQL for a large event).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several referees save at once even on the embedded default: wait for the write lock.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["CONN_MAX_AGE"] = 0

CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    # Redis with short timeouts; local memory while it cannot be reached (config/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "0.25")),
                "socket_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "0.25")),
                "retry_seconds": float(os.environ.get("CACHE_RETRY_SECONDS", "5")),
                # One pool per process, whatever the number of threads and live streams (config/cache.py).
                "max_connections": int(os.environ.get("CACHE_MAX_CONNECTIONS", "4")),
            },
        }
    }
else:
    # Room for the cached parts of a large event's pages (a page of standings or seating each).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "taikai",
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }

# The live streams (live/bus.py): what carries them between processes, how long a message is kept for a page
# that reconnects (Last-Event-ID), and how long one response lasts before the browser reconnects.
LIVE_BUS_URL = os.environ.get("LIVE_BUS_URL", CACHE_URL)
# The bus's short calls share this many Redis connections per process, besides its one reader (live/bus.py).
LIVE_BUS_CONNECTIONS = int(os.environ.get("LIVE_BUS_CONNECTIONS", "4"))
# How long the answer of a write sent with a key is kept, for the same key sent again (idempotency/).
IDEMPOTENCY_KEEP_DAYS = int(os.environ.get("IDEMPOTENCY_KEEP_DAYS", "7"))
# An answer longer than this is kept without its body (a replay gives its status and Location only).
IDEMPOTENCY_MAX_ANSWER_BYTES = int(os.environ.get("IDEMPOTENCY_MAX_ANSWER_BYTES", str(256 * 1024)))
LIVE_KEEP_SECONDS = int(os.environ.get("LIVE_KEEP_SECONDS", "900"))
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "15"))
LIVE_STREAM_SECONDS = float(os.environ.get("LIVE_STREAM_SECONDS", "300"))
# How many live streams one address may hold open at once (a phone needs one or two): past it a stream answers
# 429 and the page polls. A hall whose phones share one address (the venue's Wi-Fi) needs it above their number.
LIVE_STREAMS_PER_ADDRESS = int(os.environ.get("LIVE_STREAMS_PER_ADDRESS", "500"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Japanese and English (docs/glossary.md): the language switch on every page, then an account's
# preference, then the browser's Accept-Language; English where none of them says.
LANGUAGE_CODE = "en"
# A new language is one catalog (locale/<code>/LC_MESSAGES/, bin/translations) and one line here (README, "Languages").
LANGUAGES = [
    ("ja", "日本語"),
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("ko", "한국어"),
    ("de", "Deutsch"),
    ("fr", "Français"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "config.api.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Sessions only: the API takes no password, so guessing one goes through the throttled sign-in pages.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    # Generous: a venue's scorekeepers share one address, and each clock tablet polls every 2 s. Addresses,
    # accounts and tokens are each counted on their own (config/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AddressRateThrottle",
        "config.throttling.AccountRateThrottle",
        "config.throttling.TokenRateThrottle",
    ],
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXIES", "0")),
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_ANON_RATE", "6000/min"),
        "user": os.environ.get("API_USER_RATE", "1200/min"),
        "token": os.environ.get("API_TOKEN_RATE", "1200/min"),
    },
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

# The OpenAPI schema of /api/v1/ (drf-spectacular) and its docs page, whose scripts and styles are served
# from this site (the sidecar package), never from a CDN: the Content Security Policy stays as it is.
SPECTACULAR_SETTINGS = {
    "TITLE": "Taikai API",
    "DESCRIPTION": (
        "Events, players and entries, rounds and seatings, tables with their hands (every version), results, "
        "penalties, absences, rulings, the chess clock, standings and exports of a Taikai tournament.\n\n"
        "**Authentication:** the browser's session, or an API token of one event (`Authorization: Bearer "
        '<token>`), scoped read, referee (some tables) or organizer. **Errors:** `{"error": {"code", '
        '"message", "field"}}` with 400 (bad input, naming the field), 401 (no or bad credentials), 403 '
        "(the role or token does not allow it), 404, 409 (someone saved first). **Points** are integers; "
        "fractions (game points, totals) are exact strings `n` or `n/d`, never floating point."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "PREPROCESSING_HOOKS": ["config.api.only_api_v1"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999},
        "n": {"type": "integer", "minimum": 0, "maximum": 9999},
    },
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournament.models.Event.Status",
        "EntryStatusEnum": "tournament.models.Entry.Status",
        "RoundStatusEnum": "tournament.models.Round.Status",
        "TableStatusEnum": "tournament.models.Table.Status",
        "HandOutcomeEnum": "tournament.models.HandVersion.Outcome",
        "RecordedOutcomeEnum": "tournament.services.hand_input.OUTCOMES",
    },
}

# Sign-in: five wrong passwords for one account, or twenty from one address, lock it for 15 minutes.
# The reverse proxies of one's own in front of the site: the caller's address is the one the nearest of them
# saw (X-Forwarded-For, read from the right). 0: the connection's address, and X-Forwarded-For is ignored.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

# Online rounds: the lobby adapters that may start games on a platform (gamelogs.lobby); "manual" only says what to
# do. An adapter that calls a platform runs only where named here: none by default.
ONLINE_LOBBY_ADAPTERS = [
    key.strip() for key in os.environ.get("ONLINE_LOBBY_ADAPTERS", "manual").split(",") if key.strip()
]
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS", "20"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
LOGIN_DELAY_MAX_SECONDS = int(os.environ.get("LOGIN_DELAY_MAX_SECONDS", "60"))
# A staff session lasts a tournament day, not two weeks.
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", str(12 * 3600)))

# Content Security Policy (django-csp): scripts only from the site or with the page's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
    }
}

# Celery: with no broker URL, tasks run in-process (the embedded default).
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "memory://"
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or (
    None if CELERY_TASK_ALWAYS_EAGER else CELERY_BROKER_URL
)
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# How long an unacknowledged task (its worker died) waits before it is delivered again (Redis); a broker
# that does not answer is given up on after half a second (the work waits in the broker queue, core.queue).
BROKER_CONNECT_SECONDS = float(os.environ.get("BROKER_CONNECT_SECONDS", "0.5"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_BROKER_VISIBILITY_TIMEOUT", "600")),
    "socket_connect_timeout": BROKER_CONNECT_SECONDS,
}
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_CONNECT_SECONDS
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = BROKER_CONNECT_SECONDS
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# Periodic work (``celery -A config beat``, or a worker started with ``-B``): the queued tasks (core.queue) sent
# again when the broker is back. The setting, the beat entry and the task keep their first names ("outbox"):
# deployments set and schedule them so.
OUTBOX_FLUSH_SECONDS = float(os.environ.get("OUTBOX_FLUSH_SECONDS", "30"))
# A seating job beats every SEATING_HEARTBEAT_SECONDS while it runs; one silent for SEATING_STALE_SECONDS
# has lost its worker and may be asked for again.
SEATING_HEARTBEAT_SECONDS = float(os.environ.get("SEATING_HEARTBEAT_SECONDS", "5"))
SEATING_STALE_SECONDS = float(os.environ.get("SEATING_STALE_SECONDS", "60"))
# An admin upload of more lines than this is imported by a worker, with progress (a larger file could
# outlast the web server's request timeout).
PLAYER_IMPORT_INLINE_ROWS = int(os.environ.get("PLAYER_IMPORT_INLINE_ROWS", "2000"))
# A worker's import of a large file stops after this long, nothing imported, and says so on its page (within
# the task's soft time limit of 240 s).
PLAYER_IMPORT_SECONDS = int(os.environ.get("PLAYER_IMPORT_SECONDS", "200"))
# Backups (ops/backups.py): beat makes one every BACKUP_EVERY_SECONDS while an event is running, into
# BACKUP_DIR, keeping the last BACKUP_KEEP.
BACKUP_DIR = os.environ.get("BACKUP_DIR") or str(BASE_DIR / "backups")
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "96"))
BACKUP_EVERY_SECONDS = float(os.environ.get("BACKUP_EVERY_SECONDS", "900"))
BACKUP_WHEN_IDLE = env_flag("BACKUP_WHEN_IDLE")
# Late players (tournament/services/late.py): beat marks those past their round's deadline every
# LATE_PLAYERS_EVERY_SECONDS (the referee's warning comes a minute before, so well under a minute).
LATE_PLAYERS_EVERY_SECONDS = float(os.environ.get("LATE_PLAYERS_EVERY_SECONDS", "15"))
# Announcements (core/announce.py) a process committed and ended before delivering: beat delivers those older
# than ANNOUNCEMENTS_GRACE_SECONDS every ANNOUNCEMENTS_FLUSH_SECONDS (a live page hears of such a hand that late).
ANNOUNCEMENTS_FLUSH_SECONDS = float(os.environ.get("ANNOUNCEMENTS_FLUSH_SECONDS", "5"))
ANNOUNCEMENTS_GRACE_SECONDS = float(os.environ.get("ANNOUNCEMENTS_GRACE_SECONDS", "5"))
CELERY_BEAT_SCHEDULE = {
    "outbox-flush": {"task": "tournament.outbox_flush", "schedule": OUTBOX_FLUSH_SECONDS},
    "announcements-flush": {"task": "core.announcements_flush", "schedule": ANNOUNCEMENTS_FLUSH_SECONDS},
    "backup": {"task": "ops.backup", "schedule": BACKUP_EVERY_SECONDS},
    "late-players": {"task": "tournament.late_players_mark", "schedule": LATE_PLAYERS_EVERY_SECONDS},
}
# The embedded default has no beat: the entries named here run in a thread of the serving process instead
# (core/beat.py), when IN_PROCESS_BEAT is set (bin/serve sets it). Each is idempotent, so the autoreloader's
# second process running them too changes nothing.
IN_PROCESS_BEAT = env_flag("IN_PROCESS_BEAT") and CELERY_TASK_ALWAYS_EAGER
IN_PROCESS_BEAT_ENTRIES = ["late-players", "announcements-flush"]
# /metrics answers these addresses and networks only (the caller's address as TRUSTED_PROXIES reads it).
METRICS_ALLOWED_ADDRESSES = env_list("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1")

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# Error reports: ADMINS="Name <mail@example.org>, Other <other@example.org>" mails every server error.
ADMINS = [parseaddr(item) for item in env_list("ADMINS")]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "taikai@localhost")
# The address the accessibility statement (/accessibility/) gives for reports of barriers; none by default.
ACCESSIBILITY_CONTACT = os.environ.get("ACCESSIBILITY_CONTACT", "")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
# Players' messages (registration): SMTP when EMAIL_HOST is set, else printed by the process that sends them
# (the embedded default). EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS as Django reads them.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", SERVER_EMAIL)
# The site's address as players reach it, for the links in messages written with no request being answered
# (a worker, a command); a message written while answering a request links to the address that request used.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# Logs: plain text (the default), or LOG_FORMAT=json for one JSON object per line with a line per request and
# per task, each with its request id (ops/logging_json.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain")
LOGGING = logging_config(json_lines=LOG_FORMAT == "json", level=os.environ.get("LOG_LEVEL", "WARNING"))
# Error reports to Sentry when SENTRY_DSN is set (ops/sentry.py); nothing is sent anywhere without it.
SENTRY_ENABLED = init_sentry()
