"""The layering of the Django half, checked on the import graph (``lint-imports`` checks the contracts
of ``pyproject.toml`` too; these name the rules one by one, for every app)."""

import importlib.util
from pathlib import Path

import grimp
import pytest

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("layering", ROOT / "benchmarks" / "layering.py")
layering = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layering)

PACKAGES = [p for p in layering.PACKAGES if (ROOT / p).exists()]
APPS = [p for p in PACKAGES if p not in ("config", "taikai")]

# The apps in one line, lowest first: an app imports only the apps on lower steps (or on none).
STACK = (
    ("taikai",),
    ("core",),
    ("scoring", "players", "accounts"),
    ("tournament",),
    ("profiles",),
    ("idempotency",),
    ("registration", "seasons", "live", "gamelogs", "archive"),
    ("ops",),
    ("config",),
)
ENTRY_POINTS = ("admin", "views", "api", "api_v1", "tasks", "management", "templatetags", "urls", "console")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)


def step_of(package: str) -> int:
    return next(rank for rank, step in enumerate(STACK) if package in step)


def test_every_app_has_its_step_in_the_stack():
    assert {p for p in PACKAGES} <= {p for step in STACK for p in step}


def test_no_import_cycles_between_project_modules():
    assert layering.import_cycles() == []


def test_project_modules_are_imported_at_module_level_except_in_the_apps_ready():
    # an AppConfig.ready imports what registers itself (Celery tasks, subscribers, announcement subjects)
    assert [line for line in layering.function_local_imports() if not line.split(":")[0].endswith("/apps.py")] == []


def test_apps_import_only_the_apps_below_them(graph):
    upward = {
        (importer, imported)
        for importer in graph.modules
        if ".migrations" not in importer and importer.split(".")[0] in PACKAGES
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.split(".")[0] in PACKAGES
        and imported.split(".")[0] != importer.split(".")[0]
        and step_of(imported.split(".")[0]) >= step_of(importer.split(".")[0])
    }
    assert upward == set()


@pytest.mark.parametrize("package", ["scoring", "players", "accounts", "config", "core"])
def test_nothing_below_the_tournament_app_imports_it(graph, package):
    modules = graph.find_descendants(package) | {package}
    imported = {
        m for module in modules if ".migrations" not in module for m in graph.find_modules_directly_imported_by(module)
    }
    assert {m for m in imported if m == "tournament" or m.startswith("tournament.")} == set()


@pytest.mark.parametrize("package", ["scoring", "players", "accounts", "core"])
def test_nor_through_another_module(graph, package):
    chains = graph.find_shortest_chains(importer=package, imported="tournament", as_packages=True)
    assert chains == set()


def test_the_tournament_app_reaches_the_scoring_engine_only_through_scoring_services(graph):
    direct = {
        (importer, imported)
        for imported in graph.find_descendants("scoring.engine") | {"scoring.engine"}
        for importer in graph.find_modules_that_directly_import(imported)
        if importer.startswith("tournament.")
    }
    assert direct == set()


@pytest.mark.parametrize(
    "engine",
    ["scoring.engine", "tournament.engine", "seasons.engine", "gamelogs.engine", "scoring.tiles", "players.reading"],
)
def test_engines_import_no_django_and_no_database_layer(graph, engine):
    modules = graph.find_descendants(engine) | {engine}
    imported = {m for module in modules for m in graph.find_modules_directly_imported_by(module)}
    assert not {m for m in imported if m.split(".")[0] in ("django", "rest_framework", "celery", "players", "core")}
    assert not {m for m in imported if m.startswith(("scoring.models", "tournament.models", "tournament.services"))}


@pytest.mark.parametrize("app", APPS)
def test_services_never_import_an_entry_point(graph, app):
    services = {
        m for m in graph.modules if m.startswith(app + ".") and m.split(".")[1] in ("services", "queue", "csv_import")
    }
    entry_points = tuple(f"{a}.{part}" for a in APPS for part in ENTRY_POINTS)
    imported = {m for module in services for m in graph.find_modules_directly_imported_by(module)}
    assert not {m for m in imported if m.startswith(entry_points) and not m.startswith("core.api")}
