"""The form that takes a game log from a person: the event, and the log as a file or its text pasted (the admin's
"Import a game log…" and the console's page)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gamelogs.engine.tenhou_xml import MAX_LOG_BYTES
from tournament.models import Event


class GameLogForm(forms.Form):
    event = forms.ModelChoiceField(queryset=Event.objects.none(), label=gettext_lazy("Event"))
    log_file = forms.FileField(
        label=gettext_lazy("Log file"),
        required=False,
        help_text=gettext_lazy("Tenhou's XML log (mjlog) or the tenhou.net/6 JSON form, plain or gzip."),
    )
    log_text = forms.CharField(
        label=gettext_lazy("Or paste the log"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )

    def __init__(self, *args, events, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = events

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("log_file"), (cleaned.get("log_text") or "").strip()
        if upload is None and not text:
            raise forms.ValidationError(_("Give the log: a file, or its text pasted."), code="no_log")
        if upload is not None and upload.size > MAX_LOG_BYTES:
            raise forms.ValidationError(_("A game log is at most 2 MB."), code="too_large")
        cleaned["data"] = upload.read() if upload is not None else text.encode()
        return cleaned
