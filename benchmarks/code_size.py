"""The house in figures: lines per app, the largest modules, the formatter's exceptions, and the imports that
run back up (a module of an app below ``tournament`` importing it).

    python benchmarks/code_size.py [--largest 10]

Counts physical lines of ``.py`` files, migrations left out (they are generated and never read as code).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", "node_modules", "migrations", "__pycache__", ".git"}
BELOW_TOURNAMENT = ("core", "scoring", "players", "accounts", "config", "taikai")


def python_files(folder: Path):
    for path in sorted(folder.rglob("*.py")):
        if not SKIPPED.intersection(path.relative_to(ROOT).parts):
            yield path


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def apps() -> list[Path]:
    """The project's packages and the folders of tests and benchmarks."""
    return [p for p in sorted(ROOT.iterdir()) if p.is_dir() and p.name not in SKIPPED and any(p.glob("*.py"))]


def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=10)
    args = parser.parse_args()
    modules = []
    print(f"{'app':<14} {'modules':>7} {'lines':>7}")
    for app in apps():
        files = list(python_files(app))
        modules += [(lines_of(f), f.relative_to(ROOT).as_posix()) for f in files]
        print(f"{app.name:<14} {len(files):>7} {sum(lines_of(f) for f in files):>7}")
    print(f"\nthe {args.largest} largest modules:")
    for lines, name in sorted(modules, reverse=True)[: args.largest]:
        print(f"  {lines:>6}  {name}")
    over = [name for lines, name in modules if lines > 700]
    print(f"modules over 700 lines: {len(over)}")
    skips = sum(
        line.rstrip().endswith("# fmt: skip")
        for app in apps()
        for f in python_files(app)
        for line in f.read_text(encoding="utf-8").splitlines()
    )
    print(f"'# fmt: skip' markers: {skips}")
    back_up = [
        f"{f.relative_to(ROOT).as_posix()} -> {module}"
        for app in BELOW_TOURNAMENT
        if (ROOT / app).is_dir()
        for f in python_files(ROOT / app)
        for module in sorted(imports_of(f))
        if module == "tournament" or module.startswith("tournament.")
    ]
    print(f"imports that run back up into tournament: {len(back_up)}")
    for line in back_up:
        print(f"  {line}")


if __name__ == "__main__":
    main()
