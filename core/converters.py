"""Path converters of the site's URLs, registered by ``core.apps`` before any URL module is read."""


class IdConverter:
    """A row id: digits a database column holds (anything longer is no such row: 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


class NumberConverter(IdConverter):
    """A round, hand or seat number (up to 9999)."""

    regex = "[0-9]{1,4}"
