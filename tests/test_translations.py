"""Every catalog keeps up with the code: every message a person reads is translated, in every language of
``settings.LANGUAGES`` but English (Japanese, Chinese, Korean, German, French).

``makemessages`` runs on a copy of the project, so a message added to the code without its translations
fails here (and the working tree is left alone). Each committed catalog has no untranslated or fuzzy
entry, its placeholders match (``msgfmt --check``), its plural forms are the language's (as Django's own
catalog of that language states them) with every form of every plural message written, and the compiled
``.mo`` says what the ``.po`` says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import django
import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
# the locales with a catalog: every language of the site but English, the language of the code
LOCALES = tuple(to_locale(code) for code, _name in settings.LANGUAGES if code != "en")
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

# ``manage.py makemessages -d <domain> <options>`` for each of the comma-separated domains of its first argument
MAKEMESSAGES = """
import sys

import django
from django.core.management import call_command

django.setup()
for domain in sys.argv[1].split(","):
    call_command("makemessages", "-d", domain, *sys.argv[2:])
"""

needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None and os.environ.get("CI") != "true",
    reason="GNU gettext (xgettext, msgfmt) is not installed; CI installs it",
)


def catalog_dir(locale: str) -> Path:
    return ROOT / "locale" / locale / "LC_MESSAGES"


def catalog(locale: str, domain: str) -> polib.POFile | None:
    path = catalog_dir(locale) / f"{domain}.po"
    return polib.pofile(str(path)) if path.exists() else None


def unfinished(po: polib.POFile) -> list[str]:
    """Entries a reader would see in English: untranslated, fuzzy (a guess), or obsolete."""
    return [entry.msgid for entry in po if entry.obsolete or "fuzzy" in entry.flags or not entry.translated()]


@needs_gettext
@pytest.mark.slow
def test_every_message_of_the_code_is_in_every_catalog(tmp_path):
    # given a copy of the project
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    # when makemessages extracts the messages of the code into the copy's catalogs, each domain in turn in one
    # process (the project is set up once, not once a domain)
    options = [flag for locale in LOCALES for flag in ("-l", locale)]
    options += ["--no-obsolete", "--add-location=file", "-i", ".venv", "-i", "staticfiles"]
    subprocess.run(
        [sys.executable, "-c", MAKEMESSAGES, ",".join(DOMAINS), *options],
        cwd=copy,
        check=True,
        capture_output=True,
        env=os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    # then every message is translated already, in every language
    missing = {
        (locale, domain): unfinished(polib.pofile(str(path)))
        for locale in LOCALES
        for domain in DOMAINS
        if (path := copy / "locale" / locale / "LC_MESSAGES" / f"{domain}.po").exists()
    }
    assert missing == {key: [] for key in missing}, "run bin/translations and translate these"


def test_every_language_of_the_site_has_its_catalog():
    # a language in settings.LANGUAGES without a catalog would show its readers English everywhere
    assert [locale for locale in LOCALES if not (catalog_dir(locale) / "django.po").exists()] == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_has_no_untranslated_or_fuzzy_entry(locale, domain):
    po = catalog(locale, domain)
    if po is None:
        pytest.skip(f"no {domain} messages")
    assert unfinished(po) == []


@needs_gettext
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_keeps_every_placeholder(locale, domain):
    path = catalog_dir(locale) / f"{domain}.po"
    if not path.exists():
        pytest.skip(f"no {domain} messages")
    check = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def plural_forms(po: polib.POFile) -> str:
    return " ".join(po.metadata.get("Plural-Forms", "").replace(" ", "").rstrip(";").split(";"))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_writes_the_plurals_of_its_language(locale, domain):
    po = catalog(locale, domain)
    if po is None:
        pytest.skip(f"no {domain} messages")
    # the language's plural rule, as Django's own catalog of that language states it (Korean and Chinese
    # have one form, German two with the singular for 1, French two with the singular for 0 and 1)
    django_catalog = polib.pofile(
        str(Path(django.__file__).parent / "conf" / "locale" / locale / "LC_MESSAGES" / "django.po")
    )
    assert plural_forms(po) == plural_forms(django_catalog)
    forms = int(po.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
    # and every plural message has all of that language's forms written
    short = [
        e.msgid
        for e in po
        if e.msgid_plural and sorted(k for k, v in e.msgstr_plural.items() if v) != list(range(forms))
    ]
    assert short == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_compiled_catalog_says_what_the_po_says(locale, domain):
    po = catalog(locale, domain)
    if po is None:
        pytest.skip(f"no {domain} messages")
    compiled = polib.mofile(str(catalog_dir(locale) / f"{domain}.mo"))

    def entries(entries_):
        return {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in entries_
            if e.msgid and (e.msgstr or any(e.msgstr_plural.values()))
        }

    assert entries(compiled) == entries(po), "run bin/translations compile"
