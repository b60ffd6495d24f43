"""Pure Python for series and ratings: no Django. Inputs and outputs are frozen dataclasses; points and
scores are exact (``int`` or ``fractions.Fraction``), the Elo ratings ``decimal.Decimal`` in one fixed context."""
