"""An exact model field for game points: a ``Fraction`` stored as text ``"n/d"`` (never a float)."""

from __future__ import annotations

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class FractionField(models.CharField):
    description = _("An exact rational number, stored as 'numerator/denominator'")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 40)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("max_length") == 40:
            del kwargs["max_length"]
        return name, path, args, kwargs

    def from_db_value(self, value, expression, connection):
        return None if value is None else Fraction(value)

    def to_python(self, value):
        if value is None or isinstance(value, Fraction):
            return value
        if isinstance(value, float):
            raise ValidationError(
                _("game points are exact: give an integer, a decimal string or a fraction"), code="invalid"
            )
        try:
            return Fraction(str(value))
        except (ValueError, ZeroDivisionError) as exc:
            raise ValidationError(
                _("%(value)s is not a number"), code="invalid", params={"value": repr(value)}
            ) from exc

    def get_prep_value(self, value):
        value = self.to_python(value)
        return None if value is None else str(value)

    def value_to_string(self, obj):
        value = self.value_from_object(obj)
        return "" if value is None else str(value)
