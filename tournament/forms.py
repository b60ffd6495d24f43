"""Forms of the organizer and referee screens. They parse input; the services validate and write."""

from __future__ import annotations

from django import forms

from tournament import selectors
from tournament.models import Entry, Event, HandVersion

OUTCOME_CHOICES = [(k, v) for k, v in HandVersion.Outcome.choices]


class ManualSeatingForm(forms.Form):
    tables = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
        help_text="One table per line, players in seat order East, South, West, North, separated by commas. "
        "Use the player's name as registered, or #entry-id.",
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_tables(self) -> list[list[int]]:
        entries = selectors.event_entries_with_players(self.event)
        by_name: dict[str, list[Entry]] = {}
        for entry in entries:
            by_name.setdefault(entry.player.display_name.casefold(), []).append(entry)
        by_id = {str(e.id): e for e in entries}
        tables, problems = [], []
        for line_number, line in enumerate(self.cleaned_data["tables"].splitlines(), start=1):
            names = [n.strip() for n in line.split(",") if n.strip()]
            if not names:
                continue
            table = []
            for name in names:
                if name.startswith("#") and name[1:] in by_id:
                    table.append(by_id[name[1:]].id)
                    continue
                matches = by_name.get(name.casefold(), [])
                if len(matches) != 1:
                    problems.append(
                        f"line {line_number}: {name!r} "
                        + ("is not registered" if not matches else "is ambiguous; use #id")
                    )
                else:
                    table.append(matches[0].id)
            tables.append(table)
        if problems:
            raise forms.ValidationError(problems)
        return tables


class FinalScoresForm(forms.Form):
    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[f"seat_{seat.position}"] = forms.IntegerField(
                label=f"{seat.wind}: {seat.entry.player}"
            )

    def final_points(self, seats) -> list[int]:
        return [self.cleaned_data[f"seat_{seat.position}"] for seat in seats]


class HandForm(forms.Form):
    """A referee's record of one hand. Seats are given by wind at the table's start (E, S, W, N)."""

    outcome = forms.ChoiceField(choices=OUTCOME_CHOICES)
    dealer_position = forms.TypedChoiceField(label="dealer", coerce=int)
    honba = forms.IntegerField(min_value=0, initial=0, label="honba 本場")
    riichi_positions = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="riichi 立直"
    )
    tenpai_positions = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="tenpai at a draw 聴牌"
    )
    discarder = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="discarder (ron)")
    winner_1 = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="winner")
    han_1 = forms.IntegerField(min_value=0, required=False, label="han")
    fu_1 = forms.IntegerField(min_value=20, required=False, label="fu")
    yakuman_1 = forms.IntegerField(min_value=0, required=False, initial=0, label="yakuman")
    winner_2 = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label="second winner (ron)"
    )
    han_2 = forms.IntegerField(min_value=0, required=False, label="han")
    fu_2 = forms.IntegerField(min_value=20, required=False, label="fu")
    winner_3 = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label="third winner (ron)"
    )
    han_3 = forms.IntegerField(min_value=0, required=False, label="han")
    fu_3 = forms.IntegerField(min_value=20, required=False, label="fu")
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(i, f"{seat.wind}: {seat.entry.player}") for i, seat in enumerate(seats)]
        blank = [("", "—")]
        self.fields["dealer_position"].choices = choices
        self.fields["riichi_positions"].choices = choices
        self.fields["tenpai_positions"].choices = choices
        self.fields["discarder"].choices = blank + choices
        for n in (1, 2, 3):
            self.fields[f"winner_{n}"].choices = blank + choices

    def hand_data(self) -> dict:
        data = self.cleaned_data
        wins = []
        for n in (1, 2, 3):
            if data.get(f"winner_{n}") is None:
                continue
            win = {
                "winner": data[f"winner_{n}"],
                "han": data.get(f"han_{n}") or 0,
                "fu": data.get(f"fu_{n}") or 30,
            }
            if n == 1 and data.get("yakuman_1"):
                win["yakuman"] = data["yakuman_1"]
            if data["outcome"] == "ron":
                win["discarder"] = data.get("discarder")
            wins.append(win)
        return {
            "outcome": data["outcome"],
            "dealer_position": data["dealer_position"],
            "honba": data["honba"],
            "riichi_positions": data.get("riichi_positions") or [],
            "tenpai_positions": data.get("tenpai_positions") or [],
            "wins": wins,
        }


class ScorekeeperPinForm(forms.Form):
    pin = forms.CharField(
        label="PIN",
        max_length=6,
        min_length=6,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "autofocus": True}
        ),
        help_text="The six digits printed on the table card.",
    )
