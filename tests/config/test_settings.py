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
