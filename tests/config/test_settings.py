import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.once

PROJECT_DIR = Path(__file__).resolve().parents[2]


def run_manage(*args, env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env(**extra):
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "TAIKAI_PRODUCTION", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return (
        base
        | {
            "TAIKAI_PRODUCTION": "1",
            "SECRET_KEY": "p" * 20 + "-production-key-with-enough-entropy-0123456789abcdef",
            "ALLOWED_HOSTS": "taikai.example.org",
        }
        | extra
    )


def test_production_mode_passes_check_deploy_without_warnings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_mode_requires_a_secret_key():
    env = production_env()
    del env["SECRET_KEY"]
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_mode_refuses_debug():
    result = run_manage("check", env=production_env(DEBUG="1"))
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_no_secret_key_is_committed():
    settings_text = (PROJECT_DIR / "config" / "settings.py").read_text()
    assert 'SECRET_KEY = "' not in settings_text and "SECRET_KEY = '" not in settings_text
    ignored = (PROJECT_DIR / ".gitignore").read_text().split()
    assert ".secret_key" in ignored


def test_under_asgi_no_database_connection_outlives_its_request():
    """Served by ASGI, a request's synchronous part runs in a thread of its own: a connection kept for the next
    request would be kept by a thread that is gone, and PostgreSQL runs out of connections."""
    probe = (
        "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "TAIKAI_SERVED_BY"}
    env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/taikai"
    wsgi = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT_DIR, env=env, capture_output=True, text=True)
    asgi = subprocess.run(
        [sys.executable, "-c", "import config.asgi; " + probe],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert (wsgi.stdout.strip(), asgi.stdout.strip()) == ("60", "0"), (wsgi.stderr, asgi.stderr)
