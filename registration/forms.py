"""The sign-up form: the fields the registration asks, and a field people never see (a honeypot)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from registration.models import FIELDS, REQUIRED_ALWAYS, Registration, SignUp

TRAP = "website"  # hidden from people, filled by scripts that fill every field


class SignUpForm(forms.ModelForm):
    website = forms.CharField(required=False, label=_("Leave this empty"))

    class Meta:
        model = SignUp
        fields = list(FIELDS)
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"}),
                   "name": forms.TextInput(attrs={"autocomplete": "name"})}  # fmt: skip

    def __init__(self, *args, registration: Registration, **kwargs):
        super().__init__(*args, **kwargs)
        for name in FIELDS:
            if name not in registration.asked and name not in REQUIRED_ALWAYS:
                del self.fields[name]
            else:
                self.fields[name].required = name in registration.required or name in REQUIRED_ALWAYS
        self.fields[TRAP].widget.attrs.update({"tabindex": "-1", "autocomplete": "off"})
