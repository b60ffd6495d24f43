from fractions import Fraction

from django import template

register = template.Library()


@register.filter
def points(value) -> str:
    """Show exact game points as a decimal: exact when it terminates within 3 places, else ≈ 2 places."""
    if value in (None, ""):
        return ""
    number = Fraction(str(value))
    for places in range(4):
        scaled = number * 10**places
        if scaled.denominator == 1:
            whole = abs(scaled.numerator)
            text = str(whole) if places == 0 else f"{whole // 10**places}.{whole % 10**places:0{places}d}"
            return ("−" if number < 0 else "") + text
    rounded = round(number * 100)
    sign = "−" if rounded < 0 else ""
    return f"≈{sign}{abs(rounded) // 100}.{abs(rounded) % 100:02d}"


@register.filter
def in_game_points(raw) -> Fraction:
    """Penalty points 反則点 (raw points, art. 37) in the unit of the points column: ÷ 1000."""
    return Fraction(int(raw or 0), 1000)
