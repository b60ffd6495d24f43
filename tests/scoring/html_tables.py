"""Read the tables of an HTML page back as text, the way a reader sees them (entities decoded)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Table:
    attrs: dict
    caption: str = ""
    rows: list[list[str]] = field(default_factory=list)


class _TableReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self._open: list[Table] = []
        self._cell: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            table = Table(attrs=dict(attrs))
            self.tables.append(table)
            self._open.append(table)
        elif tag == "tr" and self._open:
            self._open[-1].rows.append([])
        elif tag in ("td", "th") and self._open:
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")
        elif tag == "caption":
            self._in_caption = True

    def handle_endtag(self, tag):
        if tag == "table" and self._open:
            self._open.pop()
        elif tag in ("td", "th") and self._cell is not None and self._open:
            self._open[-1].rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._in_caption and self._open:
            self._open[-1].caption += data


def html_tables(text: str) -> list[Table]:
    reader = _TableReader()
    reader.feed(text)
    reader.close()
    return reader.tables
