"""URL converters: an id in a URL that no row can have is a 404, never a server error."""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1  # the largest BigAutoField value, on SQLite and PostgreSQL


class IdConverter:
    """A positive database id; anything larger than a 64-bit key does not match."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(value)  # the URL does not match: 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class Sha256Converter:
    """A SHA-256 digest in hexadecimal (a shoe's commitment), written in small letters."""

    regex = "[0-9a-fA-F]{64}"

    def to_python(self, value: str) -> str:
        return value.lower()

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(Sha256Converter, "sha256")
