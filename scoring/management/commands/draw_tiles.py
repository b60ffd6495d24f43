"""``draw_tiles``: write the 37 tile images of :mod:`scoring.tiles` to ``scoring/static/scoring/tiles/``.

The files are committed, so pages work without running it; run it again after changing a drawing.
``--check`` writes nothing and fails when a file differs from its drawing, is missing or is left over.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.tiles import STATIC_DIRECTORY, tile_files

OUTPUT_DIRECTORY = Path(__file__).resolve().parents[2] / "static" / STATIC_DIRECTORY


def stale_files(directory: Path) -> list[str]:
    """The file names in ``directory`` that differ from the drawings, are missing, or draw no tile."""
    wanted = tile_files()
    present = {path.name for path in directory.glob("*.svg")} if directory.is_dir() else set()
    differing = [
        name
        for name, text in wanted.items()
        if name not in present or (directory / name).read_text(encoding="utf-8") != text
    ]
    return differing + sorted(present - wanted.keys())


class Command(BaseCommand):
    help = "Write the tile images (SVG) to scoring/static/scoring/tiles/, or check them with --check."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="write nothing; fail if a file is stale")
        parser.add_argument("--output", type=Path, default=OUTPUT_DIRECTORY, help="the folder to write")

    def handle(self, *args, check=False, output=OUTPUT_DIRECTORY, **options):
        stale = stale_files(output)
        if check:
            if stale:
                message = _("run draw_tiles again (%(files)s)") % {"files": ", ".join(stale)}
                raise CommandError(f"stale_tiles: {message}")
            self.stdout.write(
                _("%(count)s tiles up to date in %(folder)s") % {"count": len(tile_files()), "folder": output}
            )
            return
        output.mkdir(parents=True, exist_ok=True)
        wanted = tile_files()
        for name in stale:
            path = output / name
            if name in wanted:
                path.write_text(wanted[name], encoding="utf-8", newline="\n")
            else:
                path.unlink()
        self.stdout.write(
            _("%(count)s tiles in %(folder)s (%(changed)s written or removed)")
            % {"count": len(wanted), "folder": output, "changed": len(stale)}
        )
