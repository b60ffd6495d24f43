"""The layering of the Django half, checked on the import graph (``lint-imports`` checks the contracts
of ``pyproject.toml`` too; these name the rules one by one)."""

import importlib.util
from pathlib import Path

import grimp
import pytest

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("layering", ROOT / "benchmarks" / "layering.py")
layering = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layering)


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("config", "players", "scoring", "tournament", "taikai", exclude_type_checking_imports=True)


def test_no_import_cycles_between_project_modules():
    assert layering.import_cycles() == []


def test_project_modules_are_imported_at_module_level_except_the_task_registration():
    assert [
        line
        for line in layering.function_local_imports()
        if not line.startswith(("tournament/apps.py", "players/apps.py"))
    ] == []


def test_the_tournament_app_reaches_the_scoring_engine_only_through_scoring_services(graph):
    direct = {
        (importer, imported)
        for imported in graph.find_descendants("scoring.engine") | {"scoring.engine"}
        for importer in graph.find_modules_that_directly_import(imported)
        if importer.startswith("tournament.")
    }
    assert direct == set()


@pytest.mark.parametrize("engine", ["scoring.engine", "tournament.engine", "scoring.tiles", "players.reading"])
def test_engines_import_no_django_and_no_database_layer(graph, engine):
    modules = graph.find_descendants(engine) | {engine}
    imported = {m for module in modules for m in graph.find_modules_directly_imported_by(module)}
    assert not {m for m in imported if m.split(".")[0] in ("django", "rest_framework", "celery", "players")}
    assert not {m for m in imported if m.startswith(("scoring.models", "tournament.models", "tournament.services"))}


def test_services_never_import_an_entry_point(graph):
    entry_points = ("tournament.admin", "tournament.views", "tournament.api", "tournament.tasks")
    services = graph.find_descendants("tournament.services") | {"tournament.services"}
    imported = {m for module in services for m in graph.find_modules_directly_imported_by(module)}
    assert not {m for m in imported if m.startswith(entry_points)}
