"""How the Django half is layered: import cycles, function-local imports, and the modules one write crosses.

    python benchmarks/layering.py

Prints:

* **import cycles** between the project's modules (imports under ``TYPE_CHECKING`` left out), as the
  groups of modules that import each other round a loop;
* **function-local imports** of the project's own modules (an ``import`` inside a function body);
* **record a hand → public standings**: one hand recorded, the table confirmed, the round completed,
  the standings recomputed and the public standings page rendered, on a scratch SQLite database. Every
  call between two project modules is traced: the modules entered (project and engine), the distinct
  caller → callee hops, the pairs of modules that call each other both ways (A→B→A), and the calls
  from a lower layer into a higher one (the layers of ``pyproject.toml``).
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "config",
    "core",
    "accounts",
    "players",
    "scoring",
    "tournament",
    "archive",
    "registration",
    "live",
    "seasons",
    "profiles",
    "gamelogs",
    "ops",
    "idempotency",
    "taikai",
)
sys.path.insert(0, str(ROOT))


def project_module(path: str) -> str | None:
    try:
        relative = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = relative.with_suffix("").parts
    if not parts or parts[0] not in PACKAGES or "migrations" in parts:
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_engine(module: str) -> bool:
    return module.startswith(("scoring.engine", "tournament.engine", "seasons.engine", "gamelogs.engine"))


# Layers, top first: the per-app layers contracts of pyproject.toml merged by role (every app's entry points
# first, then every app's services, selectors, models…), the apps' own extra layers where the contracts put
# them. The modules of the flat layout that this layout replaced are placed where their role puts them, so
# that both layouts are measured alike.
ENTRY_POINTS = ("apps", "admin", "views", "api", "api_v1", "tasks", "management", "templatetags", "forms", "urls")
APPS = tuple(p for p in PACKAGES if p not in ("config", "taikai"))
LAYERS = (
    (
        "config",
        *(f"{app}.{part}" for app in APPS for part in ENTRY_POINTS if f"{app}.{part}" != "core.api"),
        "tournament.console",
        "tournament.urls_console",
        "tournament.urls_api_v1",
        "tournament.urls_public",
        "tournament.urls_api",
        "accounts.middleware",
        "idempotency.middleware",
        "live.streams",
        "live.asgi",
    ),
    (
        "tournament.pages",
        "tournament.outbox",
        "tournament.hand_words",
        "core.api",
        "core.pages",
        "core.caller",
        "core.converters",
    ),
    ("tournament.simulation", "tournament.audit", "tournament.archive", "archive"),
    ("live.services",),
    ("live.selectors",),
    ("live.publish",),
    ("live.bus",),
    (
        "core.queue",
        "tournament.services",
        "tournament.access",
        "tournament.localtime",
        "scoring.services",
        "scoring.calculator",
        "players.csv_import",
        "accounts.services",
        "idempotency.services",
        "registration.services",
        "profiles.services",
        "seasons.services",
        "seasons.access",
        "gamelogs.services",
        "tournament.rules_services",
        "tournament.clock_services",
        "tournament.finals_services",
        "tournament.seating",
        "tournament.standings",
        "tournament.hand_input",
        "tournament.labels",
    ),
    (
        "core.selectors",
        "core.announce",
        "tournament.selectors",
        "tournament.stored_text",
        "tournament.announce",
        "scoring.selectors",
        "players.ordering",
        "registration.selectors",
        "registration.site",
        "profiles.selectors",
        "seasons.selectors",
    ),
    ("live.models",),
    (
        "core.models",
        "tournament.models",
        "tournament.fields",
        "scoring.models",
        "scoring.presets",
        "players.models",
        "players.countries",
        "accounts.models",
        "idempotency.models",
        "registration.models",
        "profiles.models",
        "seasons.models",
        "gamelogs.models",
    ),
    ("tournament.options", "scoring.options", "scoring.rules"),
    ("tournament.engine", "scoring.engine", "scoring.tiles", "players.reading", "seasons.engine", "gamelogs.engine"),
    ("taikai",),
)


def layer_of(module: str) -> int | None:
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def is_upward(caller: str, callee: str) -> bool:
    """A call from a lower layer into a higher one (a callback or an import against the layering)."""
    a, b = layer_of(caller), layer_of(callee)
    return a is not None and b is not None and b < a


def function_local_imports() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):  # an app not there yet has no files
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), str(path))
            for func in ast.walk(tree):
                if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(func):
                    names = []
                    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        names = [node.module]
                    elif isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    for name in names:
                        if name.split(".")[0] in PACKAGES:
                            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return sorted(set(found))


def import_cycles() -> list[list[str]]:
    """Strongly connected components of the module import graph (Tarjan), larger than one module."""
    import grimp

    graph = grimp.build_graph(*[p for p in PACKAGES if (ROOT / p).exists()], exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if ".migrations" not in m)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & set(modules)) for m in modules}
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for module in modules:
        if module not in index:
            visit(module)
    return out


def trace_record_hand_to_standings() -> tuple[set[str], set[tuple[str, str]]]:
    database = Path(tempfile.mkdtemp()) / "layering.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "TAIKAI_PRODUCTION"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from scenario import record_hand_to_standings, setup_table  # benchmarks/scenario.py

    table, client, url = setup_table()
    modules: set[str] = set()
    edges: set[tuple[str, str]] = set()

    def profile(frame, event, arg):
        if event != "call":
            return
        callee = project_module(frame.f_code.co_filename)
        if callee is None:
            return
        modules.add(callee)
        caller_frame = frame.f_back
        while caller_frame is not None:
            if f"{os.sep}celery{os.sep}" in caller_frame.f_code.co_filename:
                return  # a task delivered by Celery (in-process here): the broker calls it, not the caller
            caller = project_module(caller_frame.f_code.co_filename)
            if caller is not None:
                if caller != callee:
                    edges.add((caller, callee))
                return
            caller_frame = caller_frame.f_back

    sys.setprofile(profile)
    try:
        record_hand_to_standings(table, client, url)
    finally:
        sys.setprofile(None)
    return modules, edges


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    cycles = import_cycles()
    local = function_local_imports()
    modules, edges = trace_record_hand_to_standings()
    modules.discard("benchmarks.scenario")
    project = sorted(m for m in modules if not is_engine(m))
    engine = sorted(m for m in modules if is_engine(m))
    returns = sorted({tuple(sorted(pair)) for pair in edges if (pair[1], pair[0]) in edges})
    upward = sorted(pair for pair in edges if is_upward(*pair))
    fan: dict[str, set[str]] = defaultdict(set)
    for caller, callee in edges:
        fan[caller].add(callee)
    print(f"import cycles: {len(cycles)}")
    for group in cycles:
        print("   ", " <-> ".join(group))
    print(f"function-local imports of project modules: {len(local)}")
    for line in local:
        print("   ", line)
    print(
        f"record a hand -> public standings: {len(project)} project modules, {len(engine)} engine modules, "
        f"{len(edges)} hops, {len(returns)} A->B->A returns, {len(upward)} upward calls"
    )
    print("    project:", ", ".join(project))
    print("    engine:", ", ".join(engine))
    for a, b in returns:
        print(f"    return: {a} <-> {b}")
    for a, b in upward:
        print(f"    upward: {a} -> {b}")


if __name__ == "__main__":
    main()
