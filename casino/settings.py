"""Settings for the casino, read from environment variables (see .env.example).

The embedded default needs nothing beside Python: SQLite in WAL mode and Kombu's
filesystem broker under ``var/``. Production sets DATABASE_URL, CELERY_BROKER_URL
and REDIS_URL; the code is the same.
"""

from __future__ import annotations

import os
import re
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

django_stubs_ext.monkeypatch()

# WhiteNoise serves static files with a file iterator; under ASGI Django reads it in a
# thread and warns each time. That is fine for static files (a CDN or proxy may take them
# over); our own streams (the live events) are asynchronous.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CASINO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value is None or value == "" else int(value)


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return default if value is None or value == "" else float(value)


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production-0123456789abcdef"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
CSRF_FAILURE_VIEW = "casino.errors.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "casino",
    "casino.accounts",
    "casino.support",
    "wallet",
    "baccarat",
    # Load generation and benchmarks (manage.py bench, soak, table_bots...): only their
    # management commands; nothing of the product imports it.
    "loadtest",
]

MIDDLEWARE = [
    "casino.middleware.RequestIdMiddleware",
    "casino.middleware.DatabaseRetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "casino.security.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files come compressed ahead of time), around the rest.
    "casino.middleware.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "casino.security.middleware.DenialLogMiddleware",
    "casino.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "casino.middleware.HtmxLoginRedirectMiddleware",
    # After the HTMX redirect above, so that their redirects to the login page reach
    # an HTMX request as a whole-page redirect.
    "casino.security.middleware.SessionExpiryMiddleware",
    "casino.security.middleware.StaffTwoFactorMiddleware",
    "casino.security.ratelimits.RateLimitMiddleware",
    "casino.middleware.AdminFilterGuardMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.templating.context_processors.preferences",
            ],
        },
    },
    {
        # The table's hot fragments, taken into the pages by {% jinja %}:
        # casino/templating/jinja_env.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "casino.templating.jinja_env.environment"},
    },
]

# Database: SQLite (WAL, immediate transactions) unless DATABASE_URL says otherwise.
# synchronous=FULL syncs the WAL on every commit, so a committed round survives a power
# cut, not only a killed process; NORMAL is faster and loses the last commits on power
# loss (docs/operations.md, "Backups of the embedded default").
SQLITE_SYNCHRONOUS = os.environ.get("SQLITE_SYNCHRONOUS", "FULL").upper()
if SQLITE_SYNCHRONOUS not in {"FULL", "NORMAL", "EXTRA"}:
    raise ImproperlyConfigured("SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA.")
SQLITE_INIT = (
    f"PRAGMA journal_mode=WAL;PRAGMA synchronous={SQLITE_SYNCHRONOUS};PRAGMA foreign_keys=ON;"
)
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Persistent connections are off: under ASGI each request's sync code may run in
    # another thread, and a connection kept per thread is a connection leaked (Django's
    # deployment notes). DATABASE_POOL_SIZE > 0 gives each web process a psycopg pool
    # of at most that many connections instead (PostgreSQL only; the README's
    # production profile sets it for uvicorn, not for the Celery worker, which forks).
    #
    # CONN_HEALTH_CHECKS: a connection is checked before it is used (the pool runs
    # psycopg_pool's check_connection on each one it hands out), so connections the server
    # ended while they sat idle are replaced instead of failing a request.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
            conn_health_checks=True,
        )
    }
    DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 0)
    if DATABASE_POOL_SIZE and DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": 10,
        }
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # A server that does not answer fails a new connection after this many seconds
        # (unless the URL says ?connect_timeout=...), not when the operating system gives up.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5)
        )
    # Prepared statements: a statement a connection has run five times is planned once
    # and kept (psycopg's prepare_threshold; it needs the values bound by the server,
    # not written into the SQL). The round's twenty statements cost PostgreSQL about a
    # third less CPU. Behind a pooler that hands a connection to another client per
    # transaction (PgBouncer's transaction mode) set DATABASE_PREPARED_STATEMENTS=0.
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool(
        "DATABASE_PREPARED_STATEMENTS", True
    ):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend, with bulk writes and collected deletes cut into statements of
        # at most 65,535 values bound by the server (casino/runtime/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "casino.runtime.postgresql"
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        # A SQLite file given by URL (crash tests share the test database) keeps WAL
        # mode and immediate transactions.
        DATABASES["default"]["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": SQLITE_INIT,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": SQLITE_INIT,
            },
            # One file per test run, so two runs on one machine never share (or delete)
            # each other's database; the recovery tests hand its name to their worker.
            "TEST": {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
PASSWORD_HASHERS = [
    # Django's Argon2 and PBKDF2 (the same stored hashes), hashing in a few slots per
    # process without holding a pooled connection (casino/accounts/hashers.py).
    "casino.accounts.hashers.Argon2PasswordHasher",
    "casino.accounts.hashers.PBKDF2PasswordHasher",
]
# Password hashes run at once per process and how long a login waits for one before it
# gets the 503 page. Django's Argon2 hashes in 8 threads: one slot per 8 cores, at least one.
CASINO_PASSWORD_SLOTS = env_int("CASINO_PASSWORD_SLOTS", max(1, (os.cpu_count() or 1) // 8))
CASINO_PASSWORD_WAIT_SECONDS = env_int("CASINO_PASSWORD_WAIT_SECONDS", 30)
# Requests a web process runs at once (casino/slots.py); the others wait their
# turn without running, so the live events' loop is not one of forty. 0: no limit.
CASINO_REQUEST_SLOTS = env_int("CASINO_REQUEST_SLOTS", 8)
if env_bool("CASINO_FAST_PASSWORD_HASHER", False):
    # Tests only: Argon2 is deliberately slow.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "accounts:login"

# Login throttling: an account+IP pair is locked after 5 failures, for a cool-off.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_ENABLED = env_bool("AXES_ENABLED", True)

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
    ("it", _("Italian")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "casino@localhost")

# Cache: Redis when REDIS_URL is set (shared by every web process), else local memory.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Every Redis client (cache, sessions, rate limits, live events' pub/sub, Celery's broker)
# gives up connecting, and waiting for an answer, after these many seconds. After a
# failure the cache and the live events leave Redis alone for REDIS_RETRY_SECONDS and
# run degraded meanwhile (docs/operations.md, "Redis is down or unreachable").
REDIS_CONNECT_TIMEOUT = env_float("REDIS_CONNECT_TIMEOUT", 1.0)
REDIS_READ_TIMEOUT = env_float("REDIS_READ_TIMEOUT", 1.0)
REDIS_RETRY_SECONDS = env_float("REDIS_RETRY_SECONDS", 5.0)
REDIS_TIMEOUTS = {
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_timeout": REDIS_READ_TIMEOUT,
}
# A fragment drawn for one browser only, anew each time (a single-player table's
# statistics after a coup), is drawn "using" this alias: caching it would only cost.
UNCACHED: dict[str, dict[str, object]] = {
    "uncached": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
}


def redis_caches(url: str) -> dict[str, dict[str, object]]:
    """The caches on the Redis at ``url``: one pool and one client per process, not per
    request (casino/runtime/redis_pool.py). While Redis fails, "default" (fragments, rate
    limits) counts and keeps in this process's memory, and "sessions" keeps nothing, so
    sessions come from the database, where they are written through."""
    common = {
        "BACKEND": "casino.runtime.redis_pool.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "casino"),
    }
    options = {"pool_class": "casino.runtime.redis_pool.SharedConnectionPool", **REDIS_TIMEOUTS}
    return {
        "default": {**common, "OPTIONS": {**options, "when_down": "memory"}},
        "sessions": {**common, "OPTIONS": {**options, "when_down": "miss"}},
        **UNCACHED,
    }


if REDIS_URL:
    CACHES = redis_caches(REDIS_URL)
    # Sessions read from Redis, written through to the database (which keeps them
    # across a Redis restart, and serves them while Redis fails).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}, **UNCACHED}

# Celery: Kombu's filesystem transport by default (no service needed).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "celery" / "broker"
    _broker_dir.mkdir(parents=True, exist_ok=True)
    (VAR_DIR / "celery" / "processed").mkdir(parents=True, exist_ok=True)
    (VAR_DIR / "celery" / "control").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT = "casino.runtime.broker:Transport"  # atomic message files
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "celery" / "processed"),
        "store_processed": False,
        # Kombu's exchange tables; left unset they land in ./control of the checkout.
        "control_folder": str(VAR_DIR / "celery" / "control"),
        # How often the worker looks for new messages (Kombu's default: every second): a
        # full table's last Deal is dealt by the next tick, which should come at once.
        "polling_interval": 0.1,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Longer than any countdown we schedule, so a message is never redelivered early.
        "visibility_timeout": 3600,
        # A publish (a full table's timer, sent from a request) waits no longer than
        # this; the worker's own waits for tasks (BRPOP, 1 s) are answered sooner.
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        "socket_timeout": max(REDIS_READ_TIMEOUT, 2.0),
    }
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
# A Redis result backend, should one be configured (the casino keeps no results).
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_READ_TIMEOUT
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task whose process died under it (killed, out of memory, a crash in a library) is
# sent again after CASINO_TASK_RETRY_SECONDS, not at once, and run at most
# CASINO_TASK_MAX_RUNS times in all; then it is dropped with an error in the log
# (casino/celery.py). What it was to do the sweep does on its next pass, and a round that
# keeps killing it is voided (CASINO_RECOVERY_MAX_ATTEMPTS).
CELERY_TASK_RETRY_ON_WORKER_LOST = True
CASINO_TASK_RETRY_SECONDS = env_int("CASINO_TASK_RETRY_SECONDS", 2)
CASINO_TASK_MAX_RUNS = env_int("CASINO_TASK_MAX_RUNS", 3)
# How long a worker waits for the result of a task whose process died before it calls
# the process lost (Celery's default; the crash tests shorten it).
CELERY_WORKER_LOST_WAIT = env_float("CELERY_WORKER_LOST_WAIT", 10.0)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CASINO_RECOVERY_INTERVAL_SECONDS = env_int("CASINO_RECOVERY_INTERVAL_SECONDS", 5)
# A LOCKED round untouched this long is finished by the recovery task.
CASINO_RECOVERY_GRACE_SECONDS = env_int("CASINO_RECOVERY_GRACE_SECONDS", 5)
# A round whose completion failed this often is voided (stakes back) and flagged for support.
CASINO_RECOVERY_MAX_ATTEMPTS = env_int("CASINO_RECOVERY_MAX_ATTEMPTS", 5)
# /health/ answers 503 when the sweep has not finished a pass for 3 intervals, or a round
# has been overdue longer than this (LOCKED past the grace, BETTING past its deadline).
CASINO_HEALTH_MAX_OVERDUE_SECONDS = env_int(
    "CASINO_HEALTH_MAX_OVERDUE_SECONDS", 3 * CASINO_RECOVERY_INTERVAL_SECONDS
)
# /health/ shows its details to staff and to a monitor that sends this token
# ("Authorization: Bearer <token>"); anyone else gets its status only. Empty: staff only.
CASINO_HEALTH_TOKEN = os.environ.get("CASINO_HEALTH_TOKEN", "")
# /health/ready/: how long the database (and Redis) may take to answer, and whether Redis
# failing takes the process out of rotation (off: the casino serves without Redis,
# degraded, and a Redis shared by every process would take every one out at once).
CASINO_READY_TIMEOUT_SECONDS = env_float("CASINO_READY_TIMEOUT_SECONDS", 2.0)
CASINO_READY_NEEDS_REDIS = env_bool("CASINO_READY_NEEDS_REDIS", False)
CELERY_BEAT_SCHEDULE = {
    "recover-rounds": {
        "task": "baccarat.tasks.recover_rounds",
        "schedule": float(CASINO_RECOVERY_INTERVAL_SECONDS),
    },
    "purge-chat": {"task": "baccarat.tasks.purge_chat", "schedule": 3600.0},
    "statistics-sum-hours": {"task": "baccarat.tasks.statistics_sum_hours", "schedule": 3600.0},
}

# Full tables: their timers run as Celery countdown tasks (the sweep is the backstop);
# tests drive the ticks themselves. A seated player whose page has been gone this long
# is stood up and cashed out between rounds.
CASINO_TABLE_TICKS = env_bool("CASINO_TABLE_TICKS", True)
CASINO_SEAT_AWAY_SECONDS = env_int("CASINO_SEAT_AWAY_SECONDS", 120)
# A Celery worker's process runs one task at a time in one thread: it keeps its database
# connection this many seconds between tasks (casino/celery.py) instead of opening one per
# task; a full table's timer is a task or more a round.
CASINO_WORKER_CONN_MAX_AGE = env_int("CASINO_WORKER_CONN_MAX_AGE", 600)
# The full table's chat: at most CASINO_CHAT_RATE messages per player in
# CASINO_CHAT_RATE_SECONDS; messages are deleted after CASINO_CHAT_RETENTION_DAYS.
CASINO_CHAT_RATE = env_int("CASINO_CHAT_RATE", 5)
CASINO_CHAT_RATE_SECONDS = env_int("CASINO_CHAT_RATE_SECONDS", 15)
CASINO_CHAT_RETENTION_DAYS = env_int("CASINO_CHAT_RETENTION_DAYS", 30)

# Full tables' events (the rows their live streams replay) are deleted by the same hourly
# purge after this many days; a chat event goes with its message, whichever comes first.
CASINO_TABLE_EVENT_RETENTION_DAYS = env_int("CASINO_TABLE_EVENT_RETENTION_DAYS", 30)

# Money, in integer cents.
CASINO_STARTING_CHIPS = env_int("CASINO_STARTING_CHIPS", 1_000_00)
CASINO_DEPOSIT_CAP_PER_DAY = env_int("CASINO_DEPOSIT_CAP_PER_DAY", 10_000_00)
CASINO_MAX_LIMIT = env_int("CASINO_MAX_LIMIT", 10_000_00)

# Crash tests only: kill the process at a named point. Never honoured in production.
CASINO_ALLOW_FAULT_INJECTION = env_bool("CASINO_ALLOW_FAULT_INJECTION", False) and DEBUG

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

# Sessions end after a time without requests (idle) and, whatever happens, a time after
# the login (lifetime); staff sooner than players (casino/security/middleware.py).
CASINO_SESSION_IDLE_MINUTES = env_int("CASINO_SESSION_IDLE_MINUTES", 12 * 60)
CASINO_SESSION_LIFETIME_HOURS = env_int("CASINO_SESSION_LIFETIME_HOURS", 7 * 24)
CASINO_STAFF_SESSION_IDLE_MINUTES = env_int("CASINO_STAFF_SESSION_IDLE_MINUTES", 30)
CASINO_STAFF_SESSION_LIFETIME_HOURS = env_int("CASINO_STAFF_SESSION_LIFETIME_HOURS", 12)
SESSION_COOKIE_AGE = (
    60 * 60 * max(CASINO_SESSION_LIFETIME_HOURS, CASINO_STAFF_SESSION_LIFETIME_HOURS)
)

# Content-Security-Policy (django-csp): our own scripts, styles and connections only; no
# inline script or style anywhere (scripts set element.style through the CSSOM, which the
# policy allows). Permissions-Policy: no powerful browser feature is ever used.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}
CASINO_PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}

# Second factor (django-otp) for staff and superusers: TOTP with recovery codes, asked after
# the password and required for /admin/ and /support/. Tests turn it off except where
# they test it (tests/conftest.py).
CASINO_STAFF_OTP_REQUIRED = env_bool("CASINO_STAFF_OTP_REQUIRED", True)
CASINO_STAFF_OTP_PATHS = ["/admin/", "/support/"]
CASINO_RECOVERY_CODES = 10
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "Punto Banco")
# The admin lists devices (a superuser deletes a lost one) but never shows their secrets.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# Rate limits (django-ratelimit, counted in the cache: Redis in production, so shared by
# every web process). "N/period" as django-ratelimit reads it (s, m, h, d, e.g. "30/15m");
# an empty value turns that limit off. Per IP address (REMOTE_ADDR: behind a proxy, let
# uvicorn set it from X-Forwarded-For with --forwarded-allow-ips) or per signed-in player.
CASINO_RATE_SIGNUP = os.environ.get("CASINO_RATE_SIGNUP", "20/h")  # per IP
CASINO_RATE_PASSWORD_RESET = os.environ.get("CASINO_RATE_PASSWORD_RESET", "10/h")  # per IP
# Failed logins per IP across all usernames (axes locks one username at one IP).
CASINO_RATE_LOGIN_FAILURES = os.environ.get("CASINO_RATE_LOGIN_FAILURES", "10/15m")
CASINO_RATE_DEPOSIT = os.environ.get("CASINO_RATE_DEPOSIT", "30/h")  # per player
# Bet, clear, rebet, deal, rebuy, exit, sit, pass, cut, chat send: per player together.
CASINO_RATE_TABLE = os.environ.get("CASINO_RATE_TABLE", "120/m")
CASINO_RATE_TWO_FACTOR = os.environ.get("CASINO_RATE_TWO_FACTOR", "10/5m")  # per user
for _rate in (
    CASINO_RATE_SIGNUP,
    CASINO_RATE_PASSWORD_RESET,
    CASINO_RATE_LOGIN_FAILURES,
    CASINO_RATE_DEPOSIT,
    CASINO_RATE_TABLE,
    CASINO_RATE_TWO_FACTOR,
):
    if _rate and not re.fullmatch(r"[1-9]\d*/\d*[smhd]", _rate):
        raise ImproperlyConfigured(f"A rate limit must look like 30/15m, not {_rate!r}.")
RATELIMIT_CACHE_PREFIX = "rl:"

# An address past CASINO_RATE_LOGIN_FAILURES is not shut for the whole window: it may try
# one login per CASINO_RATE_LOGIN_THROTTLED (empty: none until the window ends), and a
# player on a browser where they signed in before (a signed cookie, kept
# CASINO_LOGIN_DEVICE_DAYS days) is not held back by the address at all.
CASINO_RATE_LOGIN_THROTTLED = os.environ.get("CASINO_RATE_LOGIN_THROTTLED", "1/m")
if CASINO_RATE_LOGIN_THROTTLED and not re.fullmatch(
    r"[1-9]\d*/\d*[smhd]", CASINO_RATE_LOGIN_THROTTLED
):
    raise ImproperlyConfigured(
        f"A rate limit must look like 1/m, not {CASINO_RATE_LOGIN_THROTTLED!r}."
    )
CASINO_LOGIN_DEVICE_DAYS = env_int("CASINO_LOGIN_DEVICE_DAYS", 90)
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A load balancer asks the web processes directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Log lines as text or, with LOG_FORMAT=json, one JSON object per line; each carries the
# id of the request (X-Request-ID) or task it was written for (casino/runtime/logs.py). One access
# line per request (casino.access; runall turns uvicorn's own off).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be text or json.")
CASINO_ACCESS_LOG = env_bool("CASINO_ACCESS_LOG", True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "casino.runtime.logs.RequestIdFilter"}},
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "casino.runtime.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "axes": {"level": "WARNING"},
        # uvicorn's own lines (startup, errors) in the same format, once; its access lines
        # are casino.access's, which know the request id.
        "uvicorn": {"handlers": ["console"], "propagate": False},
        "uvicorn.access": {"handlers": [], "propagate": False},
    },
}
AXES_VERBOSE = False
