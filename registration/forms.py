"""The sign-up form (the fields the registration asks, and a field people never see: a honeypot), and the
organizer's registration form (the details asked and required as checkboxes; more places while the event is
under way given only when asked for)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from registration import selectors
from registration.models import FIELDS, REQUIRED_ALWAYS, Registration, SignUp

TRAP = "website"  # hidden from people, filled by scripts that fill every field


class SignUpForm(forms.ModelForm):
    website = forms.CharField(required=False, label=_("Leave this empty"))

    class Meta:
        model = SignUp
        fields = list(FIELDS)
        widgets = {
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "name": forms.TextInput(attrs={"autocomplete": "name"}),
        }

    def __init__(self, *args, registration: Registration, **kwargs):
        super().__init__(*args, **kwargs)
        for name in FIELDS:
            if name not in registration.asked and name not in REQUIRED_ALWAYS:
                del self.fields[name]
            else:
                self.fields[name].required = name in registration.required or name in REQUIRED_ALWAYS
        self.fields[TRAP].widget.attrs.update({"tabindex": "-1", "autocomplete": "off"})


class DetailsField(forms.MultipleChoiceField):
    """The details a sign-up gives, as checkboxes: those beyond name and e-mail (always asked and required) are
    offered; stored as before, the list of every detail in the form's order, name and e-mail included."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        offered = [(name, SignUp._meta.get_field(name).verbose_name) for name in FIELDS if name not in REQUIRED_ALWAYS]
        super().__init__(choices=offered, required=False, **kwargs)

    def prepare_value(self, value):
        return [name for name in (value or []) if name not in REQUIRED_ALWAYS]

    def clean(self, value):
        chosen = set(super().clean(value))
        return [name for name in FIELDS if name in chosen or name in REQUIRED_ALWAYS]


class RegistrationForm(forms.ModelForm):
    """The admin's registration form. A detail required but not asked is refused on ``required`` (the model's
    ``clean``). Raising the places once the event is under way promotes nobody unless ``promote_under_way``."""

    asked = DetailsField(label=_("details asked"), help_text=_("Name and e-mail are always asked and required."))
    required = DetailsField(label=_("details required"), help_text=_("A detail required must also be asked."))
    promote_under_way = forms.BooleanField(
        label=_("Give the new places to the waiting list now, though the event is under way"),
        required=False,
        help_text=_(
            "Check-in is closed or round 1 is seated: without this, more places promote nobody, and a "
            "waiting player who comes to the desk is given a free place there. With it, those promoted "
            "are told the event is in progress and to come to the desk; they play from the next round "
            "once checked in there."
        ),
    )

    class Meta:
        model = Registration
        fields = (
            "event",
            "opens_at",
            "closes_at",
            "cap",
            "approval",
            "asked",
            "required",
            "pending_per_email",
            "checkin_opens_at",
        )

    def waiting_first(self) -> list[SignUp]:
        """Who the places would go to now (for the organizer to see before promoting under way)."""
        return selectors.waiting_first(self.instance) if self.instance.pk else []
