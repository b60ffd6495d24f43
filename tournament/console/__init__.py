"""The console: where referees and scorekeepers work at the tables, outside the admin. One module per page:

* ``tables``: "My tables", the tables of running rounds the person may act on; a scorekeeper's table card
  (the link from the card's QR code, then its PIN);
* ``sheet``: the table sheet: hands (and corrections), the result, absences, the final's decision;
* ``clock``: a table's chess clock, and many tables' clocks at once;
* ``discipline``: a foul logged or cancelled; ``substitutes``: a substitute seated;
* ``offline``: the service worker and the manifest;
* ``common``: who is refused, and the table a page is about.

Every write asks :mod:`tournament.access` first: recording and confirming need the table (referee or its
scorekeeper), absences, reopening and the final's decision need a referee of the table.
"""
