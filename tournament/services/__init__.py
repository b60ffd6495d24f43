"""Writes of the tournament app, by subject. Each service is one transaction that validates, locks (in
the order of :mod:`tournament.services.locks`) and records; reads go through :mod:`tournament.selectors`
and scoring through :mod:`scoring.services`. Nothing recorded is edited in place: hands and table
results get new versions naming who and when.

* ``entries``: registering players;
* ``roles``: co-organizers and referees, the scorekeepers' table keys, the staff groups;
* ``tokens``: the API's tokens, issued and revoked;
* ``rounds``: creating, publishing and completing rounds;
* ``checks``: a round's results checked (then locked) and unlocked with a reason;
* ``seating``: the next round's seating request, its job and the Celery work behind it;
* ``schedule``: a fixed schedule imported from a file, and rounds seated from it;
* ``planning``: the whole event planned now, kept as its fixed schedule;
* ``substitutes``: a substitute seated in an absent player's place (代走);
* ``teams``: team events: teams from CSV, the team standings, a reserve seated in for a round;
* ``hand_input``: what a referee records for a hand, checked against the table;
* ``hands``: recording a hand or a correction, with the rights of seed 004 and the hand's label; the
  engine's end of an overtime outside the final (art. 39 ②), and the directors closing one (art. 44);
* ``results``: confirming and reopening a table's result;
* ``events``: finishing an event;
* ``discipline``: penalties, disqualification (automatic, lifted with its penalty, or confirmed by an
  organizer), rulings and absences (arts. 35–37, 42–44);
* ``clock``: the chess clock (art. 38), without the seats that left (art. 42) or lost their claims (art. 36);
* ``finals``: the final's decision after its prescribed games, among eligible finalists (arts. 40, 43);
* ``standings``: the overall standings (art. 41) and their recompute;
* ``locks``: the row locks of an event's play, in one documented order (and where the others are);
* ``common``: small steps every service takes alike.

The Celery work a service asks for is queued after commit through the broker queue, ``core.queue``; the
tasks' pinned names are beside the services that queue them (``standings.STANDINGS_RECOMPUTE``,
``seating.SEAT_NEXT_ROUND``).
"""
