"""Every CSV file Taikai writes, through one writer that no spreadsheet reads as formulas.

A cell of text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a return is read by spreadsheets as a
formula (OWASP "CSV injection"): a player named ``=HYPERLINK("http://x")`` would become a link in the
organizer's sheet. :func:`csv_writer` writes every row with each such cell prefixed by an apostrophe; a
number (an int, a Fraction, ``-45`` or ``-91/2`` written as text) stays a number.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:/\d+)?")


def csv_text(value) -> str:
    """A cell as text, never read as a formula: text starting with = + - @ tab or return gets a leading
    apostrophe, unless it is a plain number."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


class NeutralWriter:
    """``csv.writer``'s ``writerow`` and ``writerows``, each cell through :func:`csv_text`."""

    def __init__(self, out, **options):
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable):
        return self._writer.writerow([csv_text(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out, **options) -> NeutralWriter:
    """The writer of every CSV export (``out``: a response, a file or a stream's echo)."""
    return NeutralWriter(out, **options)
