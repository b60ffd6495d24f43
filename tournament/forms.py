"""Forms of the organizer and referee screens. They parse input; the services validate and write."""

from __future__ import annotations

import json
import re

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players.reading import matches, search_keys, search_needle
from taikai.errors import TaikaiError
from taikai.text import json_read
from tournament import selectors
from tournament.engine.penalties import is_disqualifying
from tournament.models import ApiToken, Entry, Event, HandVersion

OUTCOME_CHOICES = [(k, v) for k, v in HandVersion.Outcome.choices]
# 責任払い (pao): the yakuman a ruleset may name, as the referee reads them
PAO_YAKUMAN_LABELS = {
    "daisangen": _("daisangen 大三元"),
    "daisuushii": _("daisuushii 大四喜"),
    "suukantsu": _("suukantsu 四槓子"),
}


class ManualSeatingForm(forms.Form):
    tables = forms.CharField(
        label=_("Tables"),
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
        help_text=_(
            "One table per line, players in seat order East, South, West, North, separated by commas. "
            "Use the player's name as registered, or #entry-id."
        ),
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_tables(self) -> list[list[int]]:
        entries = selectors.event_entries_with_players(self.event)
        tables, problems, seen = [], [], {}
        for line_number, line in enumerate(self.cleaned_data["tables"].splitlines(), start=1):
            names = [n.strip() for n in line.split(",") if n.strip()]
            if not names:
                continue
            table = []
            for name in names:
                try:
                    entry = entry_by_name_or_id(self.event, name, entries=entries)
                except TaikaiError as exc:
                    problems.append(gettext("line %(line)s: %(error)s") % {"line": line_number, "error": exc.message})
                    continue
                if entry.id in seen:
                    problems.append(
                        gettext("line %(line)s: %(player)s is seated twice (also on line %(first)s)")
                        % {"line": line_number, "player": entry.player, "first": seen[entry.id]}
                    )
                seen.setdefault(entry.id, line_number)
                table.append(entry.id)
            tables.append(table)
        if problems:
            raise forms.ValidationError(problems)
        return tables


ENTRY_ID = re.compile(r"#(\d+)(?:\s|$)")


def entry_by_name_or_id(event: Event, text: str, *, entries: list[Entry] | None = None, partial: bool = False) -> Entry:
    """The entry a person typed: ``#entry-id`` (what a list of choices fills in, the name may follow it), or
    the player's name as registered (any case). With ``partial``, a part of the name, of its kana reading or
    of its romaji finds the one player it fits (山口, やまぐち, yamaguchi)."""
    text = text.strip()
    entries = selectors.event_entries_with_players(event) if entries is None else entries
    by_id = ENTRY_ID.match(text)
    if by_id:
        found = [e for e in entries if e.id == int(by_id.group(1))]
    else:
        found = [e for e in entries if e.player.display_name.casefold() == text.casefold()]
        if not found and partial:
            needle = search_needle(text)
            found = [e for e in entries if matches(needle, search_keys(e.player.display_name, e.player.reading))]
    if not found:
        message = gettext("%(name)s is not registered") % {"name": repr(text)}
        raise TaikaiError("not_registered", message, field="players")
    if len(found) > 1:
        # Translators: names are the players the typed text fits, each with its #id
        message = gettext("%(name)s fits several players: %(names)s; choose one") % {
            "name": repr(text),
            "names": ", ".join(f"{e.player} (#{e.id})" for e in found[:5]),
        }
        raise TaikaiError("ambiguous_name", message, field="players")
    return found[0]


def seat_choice_label(seat) -> str:
    """A seat among a form's choices: its wind at the game's start (in the reader's language), then the player."""
    return f"{seat.get_position_display()} {seat.entry.player}"


SCORE_UNIT = 100  # final scores are written in hundreds 百点


class FinalScoresForm(forms.Form):
    """Final scores only. A score below zero or not in hundreds is allowed, once the referee confirms it."""

    confirm_unusual = forms.BooleanField(required=False, label=_("These scores are right"))

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[f"seat_{seat.position}"] = forms.IntegerField(
                label=str(seat),  # "E: YAMADA Taro", the wind in the reader's language
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.order_fields([f"seat_{seat.position}" for seat in seats] + ["confirm_unusual"])
        self.warnings: list[str] = []

    def clean(self):
        data = super().clean()
        for name, value in data.items():
            if not name.startswith("seat_") or value is None:
                continue
            label = self.fields[name].label
            if value < 0:
                self.warnings.append(
                    gettext("%(seat)s ends below zero (%(points)s)") % {"seat": label, "points": value}
                )
            elif value % SCORE_UNIT:
                self.warnings.append(
                    gettext("%(seat)s: %(points)s is not in hundreds") % {"seat": label, "points": value}
                )
        if self.warnings and not data.get("confirm_unusual"):
            # Translators: the quoted words are the label of the confirmation box ("These scores are right")
            message = _("Check these scores, then tick “These scores are right”: %(warnings)s")
            raise forms.ValidationError(
                message,
                code="unusual_scores",
                params={"warnings": "; ".join(self.warnings)},
            )
        return data

    def final_points(self, seats) -> list[int]:
        return [self.cleaned_data[f"seat_{seat.position}"] for seat in seats]


HAN_CHOICES = [(str(h), str(h)) for h in range(1, 14)] + [
    ("Y1", _("yakuman 役満")),
    # Translators: a double yakuman (二倍役満), among the han choices
    ("Y2", _("double 二倍役満")),
]
STANDARD_FU_CHOICES = [20, 25, *range(30, 111, 10)]
RAW_FU_CHOICES = [20, 25, *range(22, 111, 2)]
WINNERS = (1, 2, 3)


def _radios(**kwargs):
    return forms.TypedChoiceField(coerce=int, required=False, empty_value=None, widget=forms.RadioSelect, **kwargs)


class HandForm(forms.Form):
    """A referee's record of one hand, in taps: the outcome, the winner and discarder seats, then han and
    fu (only the pairs that can exist are offered; from 5 han and for yakuman there is no fu). Seats are
    given by wind at the table's start (E, S, W, N). Up to three ron winners (multi-ron 多家和)."""

    outcome = forms.ChoiceField(label=_("Outcome"), choices=OUTCOME_CHOICES, widget=forms.RadioSelect)
    dealer_position = forms.TypedChoiceField(label=_("dealer 親"), coerce=int, widget=forms.RadioSelect)
    honba = forms.IntegerField(min_value=0, max_value=99, initial=0, label=_("honba 本場"))
    riichi_positions = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=_("riichi 立直")
    )
    tenpai_positions = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=_("tenpai 聴牌")
    )
    # Translators: the seat a ron was won from: the discarder (放銃者)
    discarder = _radios(label=_("from 放銃"))
    overtime = forms.BooleanField(required=False, label=_("overtime hand 延長戦 (art. 39)"))
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, seats, raw_fu: bool = False, abortive_draws: bool = True, pao_yakuman=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pao_offered = bool(pao_yakuman)  # 責任払い for the yakuman the ruleset names: the first winner's
        if self.pao_offered:
            self.fields["pao_yakuman"] = forms.ChoiceField(
                label=_("yakuman"),
                choices=[(key, PAO_YAKUMAN_LABELS.get(key, key)) for key in pao_yakuman],
                required=False,
                widget=forms.RadioSelect,
            )
            self.fields["responsible"] = _radios(label=_("responsible 責任"))
        if not abortive_draws:  # a ruleset without abortive draws 途中流局 (the server refuses one)
            self.fields["outcome"].choices = [
                (value, label) for value, label in OUTCOME_CHOICES if value != HandVersion.Outcome.ABORTIVE_DRAW
            ]
        choices = [(i, seat_choice_label(seat)) for i, seat in enumerate(seats)]
        fu_choices = [(fu, str(fu)) for fu in (RAW_FU_CHOICES if raw_fu else STANDARD_FU_CHOICES)]
        for n in WINNERS:
            winner = _("winner 和了") if n == 1 else _("winner %(number)s (multi-ron)") % {"number": n}
            self.fields[f"winner_{n}"] = _radios(label=winner)
            self.fields[f"han_{n}"] = forms.ChoiceField(
                choices=HAN_CHOICES, required=False, widget=forms.RadioSelect, label=_("han 翻")
            )
            self.fields[f"fu_{n}"] = _radios(label=_("fu 符"), choices=fu_choices)
            self.fields[f"yaku_{n}"] = forms.CharField(required=False, widget=forms.HiddenInput)
        for name in (
            "dealer_position",
            "riichi_positions",
            "tenpai_positions",
            "discarder",
            *(f"winner_{n}" for n in WINNERS),
            *(("responsible",) if self.pao_offered else ()),
        ):
            self.fields[name].choices = choices

    def win_fields(self):
        """(number, winner, han, fu) bound fields of each possible winner, for the template."""
        return [(n, self[f"winner_{n}"], self[f"han_{n}"], self[f"fu_{n}"], self[f"yaku_{n}"]) for n in WINNERS]

    def hand_data(self) -> dict:
        data = self.cleaned_data
        wins = []
        for n in WINNERS:
            if data.get(f"winner_{n}") is None:
                continue
            han = data.get(f"han_{n}") or ""
            win = {"winner": data[f"winner_{n}"], "fu": data.get(f"fu_{n}")}
            if han.startswith("Y"):
                win |= {"yakuman": int(han[1:]), "han": 0}
            else:
                win["han"] = int(han) if han else None
            if data.get(f"yaku_{n}"):
                win["yaku"] = _yaku_list(data[f"yaku_{n}"])
            if data["outcome"] == "ron":
                win["discarder"] = data.get("discarder")
            wins.append(win)
        if wins and data.get("responsible") not in (None, ""):  # 責任払い: the first winner's yakuman
            wins[0] |= {"responsible": data["responsible"], "pao_yakuman": data.get("pao_yakuman") or ""}
        return {
            "outcome": data["outcome"],
            "dealer_position": data["dealer_position"],
            "honba": data["honba"],
            "riichi_positions": data.get("riichi_positions") or [],
            "tenpai_positions": data.get("tenpai_positions") or [],
            "wins": wins,
            "overtime": bool(data.get("overtime")),
        }

    repeats_previous = False  # set when the hand equals the previous one and the referee must confirm it

    def same_hand_as(self, version, *, with_deal: bool = True) -> bool:
        """The (valid) form records exactly ``version``'s hand. ``with_deal=False`` leaves out the dealer,
        honba and overtime, which the sheet fills in for the next hand by itself."""
        data = self.hand_data()
        return _hand_key(
            data["outcome"],
            data["riichi_positions"],
            data["tenpai_positions"],
            data["wins"],
            (data["dealer_position"], data["honba"], data["overtime"]) if with_deal else None,
        ) == (
            _hand_key(
                version.outcome,
                version.riichi_positions,
                version.tenpai_positions,
                version.wins,
                (version.dealer_position, version.honba, version.overtime) if with_deal else None,
            )
        )

    @staticmethod
    def initial_from(version) -> dict:
        """The form's values for correcting ``version``: a correction starts from what is recorded."""
        initial = {
            "outcome": version.outcome,
            "dealer_position": version.dealer_position,
            "honba": version.honba,
            "riichi_positions": version.riichi_positions,
            "tenpai_positions": version.tenpai_positions,
            "overtime": version.overtime,
        }
        for n, win in enumerate(version.wins, start=1):
            initial[f"winner_{n}"] = win["winner"]
            initial[f"han_{n}"] = f"Y{win['yakuman']}" if win.get("yakuman") else str(win["han"])
            initial[f"fu_{n}"] = win.get("fu") or None
            if win.get("yaku"):
                initial[f"yaku_{n}"] = json.dumps(win["yaku"], ensure_ascii=False)
            if win.get("discarder") is not None:
                initial["discarder"] = win["discarder"]
            if win.get("responsible") is not None:
                initial |= {"responsible": win["responsible"], "pao_yakuman": win.get("pao_yakuman", "")}
        return initial


def _hand_key(outcome, riichi, tenpai, wins, deal) -> tuple:
    """What makes two records of a hand the same hand, whatever the order they list seats and wins in."""
    return (
        outcome,
        sorted(riichi or []),
        sorted(tenpai or []),
        deal,
        sorted(
            (
                w["winner"],
                w.get("han") or 0,
                w.get("fu") or 0,
                w.get("yakuman") or 0,
                w.get("discarder"),
                w.get("responsible"),
                w.get("pao_yakuman") or "",
            )
            for w in wins
        ),
    )


def _yaku_list(text: str) -> list:
    """The yaku the tile calculator found, as it handed them over (JSON); anything else is ignored."""
    try:
        value = json_read(text, field="yaku")  # nested 10,000 deep: ignored like any other, not a 500
    except ValueError:
        return []
    return value if isinstance(value, list) and all(isinstance(y, list) for y in value) else []


class PenaltyForm(forms.Form):
    """A foul at the table (arts. 35–38, 43), logged by its referee. A foul that disqualifies says so
    and is saved only once the referee confirms it."""

    seat = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label=_("player"))
    kind = forms.ChoiceField(widget=forms.RadioSelect, label=_("foul"))
    hand_number = forms.IntegerField(min_value=1, max_value=999, label=_("hand"))
    reason = forms.CharField(max_length=300, label=_("what happened"))
    confirm_disqualification = forms.BooleanField(required=False, label=_("Yes: this disqualifies the player"))

    def __init__(self, *args, seats, kinds, tournament_play: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = {seat.pk: seat for seat in seats}
        self.fields["seat"].choices = [(seat.pk, seat_choice_label(seat)) for seat in seats]
        self.fields["kind"].choices = kinds
        self.tournament_play = tournament_play
        self.disqualifies = False

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind and is_disqualifying(kind, tournament_play=self.tournament_play):
            self.disqualifies = True
            if not data.get("confirm_disqualification"):
                raise forms.ValidationError(
                    _(
                        "This foul disqualifies the player (art. 43): they lose award eligibility. "
                        "Tick the confirmation to log it."
                    ),
                    code="confirm_disqualification",
                )
        return data


def substitute_choice_label(player) -> str:
    """A stored player among the substitutes offered: the name, then what tells two of one name apart (the
    reading, the club, the EMA number or other external id)."""
    details = [text for text in (player.reading, player.club, player.external_id) if text]
    return f"{player.display_name} ({' · '.join(details)})" if details else player.display_name


class SubstituteForm(forms.Form):
    """A substitute 代走 for a seat: a stored player found by name (``candidates``, the search's matches), or a
    new player's name. The admin's page and the console's table sheet both use it."""

    seat = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label=_("seat of the absent player"))
    player = forms.ModelChoiceField(
        queryset=None, required=False, widget=forms.RadioSelect, empty_label=None, label=_("substitute")
    )
    name = forms.CharField(required=False, max_length=120, label=_("…or a new player's name"))
    reason = forms.CharField(required=False, max_length=300, label=_("reason"))

    def __init__(self, *args, table, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        seats = selectors.table_seats(table)
        self.seats = {seat.pk: seat for seat in seats}
        self.fields["seat"].choices = [(seat.pk, seat_choice_label(seat)) for seat in seats]
        event = table.round.event
        # a posted choice is checked against every eligible player; the page offers the search's matches
        eligible = selectors.substitute_eligible(event)
        self.fields["player"].queryset = (
            eligible if self.is_bound else eligible.filter(pk__in=[p.pk for p in candidates])
        )
        self.fields["player"].label_from_instance = substitute_choice_label

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("name") or "").strip():
            raise forms.ValidationError(
                gettext("choose the substitute, or give a new player's name"), code="player_required"
            )
        return data

    @property
    def chosen_seat(self):
        return self.seats[self.cleaned_data["seat"]]


class ReseatForm(forms.Form):
    """The real seats of a table that sat wrong: who really sat in each wind, chosen among the table's players,
    and why. The console's re-seat page uses it; posted twice (``confirm`` the second time)."""

    reason = forms.CharField(required=False, max_length=300, label=_("reason"))
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, table, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = selectors.table_seats(table)
        choices = [(seat.entry.player_id, str(seat.entry.player)) for seat in self.seats]
        for seat in self.seats:
            self.fields[f"seat_{seat.position}"] = forms.TypedChoiceField(
                coerce=int, choices=choices, initial=seat.entry.player_id, label=seat.wind
            )
        self.order_fields([f"seat_{seat.position}" for seat in self.seats])

    def seat_fields(self):
        return [self[f"seat_{seat.position}"] for seat in self.seats]

    @property
    def players(self) -> list[int]:
        """The players' ids in the seats chosen, East first."""
        return [self.cleaned_data[f"seat_{seat.position}"] for seat in self.seats]

    def real_seats(self) -> list[tuple[str, str, str]]:
        """Each wind, who the seating put there and who really sat there (for the confirmation)."""
        names = {seat.entry.player_id: str(seat.entry.player) for seat in self.seats}
        return [(seat.wind, str(seat.entry.player), names[p]) for seat, p in zip(self.seats, self.players, strict=True)]


class ScorekeeperPinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN"),
        max_length=6,
        min_length=6,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "autofocus": True}),
        help_text=_("The six digits printed on the table card."),
    )


class ApiTokenForm(forms.Form):
    """A new API token for the event: what it is for, its scope, a referee token's tables, an expiry."""

    name = forms.CharField(
        max_length=120, label=_("name"), help_text=_("What the token is for, e.g. “stream overlay, hall B”.")
    )
    scope = forms.ChoiceField(
        choices=ApiToken.Scope.choices,
        widget=forms.RadioSelect,
        initial=ApiToken.Scope.READ,
        label=_("scope"),
        help_text=_(
            "Read: every read of the event, no write. Referee: a referee of its tables (hands, results, "
            "penalties, absences, rulings, the clock). Organizer: everything the API does in this event."
        ),
    )
    tables = forms.CharField(
        max_length=200,
        required=False,
        label=_("tables"),
        help_text=_("Referee scope only: table numbers such as 1-8, 12. Empty: every table."),
    )
    expires_at = forms.DateTimeField(required=False, label=_("expires at"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # typed in the zone active: the event's (the admin activates it)
        self.fields["expires_at"].help_text = _(
            "YYYY-MM-DD HH:MM, in the event's time zone (%(zone)s). Empty: until revoked."
        ) % {"zone": timezone.get_current_timezone_name()}
