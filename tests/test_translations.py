"""The Japanese catalog keeps up with the code: every message a person reads is translated.

``makemessages`` runs on a copy of the project, so a message added to the code without its Japanese
fails here (and the working tree is left alone). The committed catalog has no untranslated or fuzzy
entry, its placeholders match (``msgfmt --check``), and the compiled ``.mo`` says what the ``.po`` says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "locale" / "ja" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
NOT_SOURCE = (
    ".git",
    ".venv",
    "staticfiles",
    "node_modules",
    "__pycache__",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    ".import_linter_cache",
    "db.sqlite3*",
    "tests",
    "benchmarks",
)

needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None and os.environ.get("CI") != "true",
    reason="GNU gettext (xgettext, msgfmt) is not installed; CI installs it",
)


def catalog(domain: str) -> polib.POFile | None:
    path = CATALOG / f"{domain}.po"
    return polib.pofile(str(path)) if path.exists() else None


def unfinished(po: polib.POFile) -> list[str]:
    """Entries a Japanese reader would see in English: untranslated, fuzzy (a guess), or obsolete."""
    return [entry.msgid for entry in po if entry.obsolete or "fuzzy" in entry.flags or not entry.translated()]


@needs_gettext
@pytest.mark.slow
def test_every_message_of_the_code_is_in_the_japanese_catalog(tmp_path):
    # given a copy of the project
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    # when makemessages extracts the messages of the code into the copy's catalog
    for domain in DOMAINS:
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                "-l",
                "ja",
                "-d",
                domain,
                "--no-obsolete",
                "--add-location=file",
                "-i",
                ".venv",
                "-i",
                "staticfiles",
            ],
            cwd=copy,
            check=True,
            capture_output=True,
            env=os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings"},
        )
    # then every message is translated already
    missing = {
        domain: unfinished(polib.pofile(str(copy / "locale/ja/LC_MESSAGES" / f"{domain}.po")))
        for domain in DOMAINS
        if (copy / "locale/ja/LC_MESSAGES" / f"{domain}.po").exists()
    }
    assert missing == {domain: [] for domain in missing}, "run bin/translations and translate these"


@pytest.mark.parametrize("domain", DOMAINS)
def test_japanese_catalog_has_no_untranslated_or_fuzzy_entry(domain):
    po = catalog(domain)
    if po is None:
        pytest.skip(f"no {domain} messages")
    assert unfinished(po) == []


@needs_gettext
@pytest.mark.parametrize("domain", DOMAINS)
def test_japanese_catalog_keeps_every_placeholder(domain):
    path = CATALOG / f"{domain}.po"
    if not path.exists():
        pytest.skip(f"no {domain} messages")
    check = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("domain", DOMAINS)
def test_compiled_catalog_says_what_the_po_says(domain):
    po = catalog(domain)
    if po is None:
        pytest.skip(f"no {domain} messages")
    compiled = polib.mofile(str(CATALOG / f"{domain}.mo"))

    def entries(entries_):
        return {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in entries_
            if e.msgid and (e.msgstr or any(e.msgstr_plural.values()))
        }

    assert entries(compiled) == entries(po), "run bin/translations compile"
