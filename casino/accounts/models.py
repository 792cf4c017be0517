from __future__ import annotations

from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import connections, models
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _

# (model, database alias) -> the statement, field names and converters of a read by pk.
_READS_BY_PK: dict[tuple[str, str], tuple[str, list[str], list[Any]]] = {}


class AccountManager(UserManager["User"]):
    """Django's user manager, with one shortcut: ``get(pk=<int>)`` alone is one written-out
    ``SELECT`` of the user's columns.

    Django's ``ModelBackend`` loads the signed-in user that way on every request (the
    table's chip and DEAL, each board a full table's page fetches, every page); the ORM
    spent about 0.18 ms of CPU building and compiling that query each time, more than the
    written-out read costs in all. The result is the same model instance (``from_db``);
    every other lookup goes through the ORM as before.
    """

    def get(self, *args: Any, **kwargs: Any) -> User:
        pk = kwargs.get("pk")
        if args or len(kwargs) != 1 or type(pk) is not int or self.model._meta.apps is not apps:
            # Any other lookup, and a migration's historical model: the ORM.
            return super().get(*args, **kwargs)
        connection = connections[self.db]
        sql, names, converters = self._read_by_pk(connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk])
            row = cursor.fetchone()
        if row is None:
            meta = self.model._meta
            raise self.model.DoesNotExist(f"{meta.object_name} matching query does not exist.")
        values = list(row)
        for index, convert, expression in converters:
            values[index] = convert(values[index], expression, connection)
        return self.model.from_db(self.db, names, values)

    def _read_by_pk(self, connection: Any) -> tuple[str, list[str], list[Any]]:
        """The statement, the field names and the value converters (the backend's and the
        fields', as the ORM applies them: SQLite's datetimes and booleans, for one), once
        per database."""
        key = (self.model._meta.label, connection.alias)
        cached = _READS_BY_PK.get(key)
        if cached is None:
            meta = self.model._meta
            fields = meta.concrete_fields
            quote = connection.ops.quote_name
            sql = "SELECT {} FROM {} WHERE {} = %s".format(  # noqa: S608  (the model's names)
                ", ".join(quote(field.column) for field in fields),
                quote(meta.db_table),
                quote(meta.pk.column),
            )
            converters = []
            for index, field in enumerate(fields):
                column = field.get_col(meta.db_table)
                found = connection.ops.get_db_converters(column) + column.get_db_converters(
                    connection
                )
                converters += [(index, convert, column) for convert in found]
            cached = (sql, [field.attname for field in fields], converters)
            _READS_BY_PK[key] = cached
        return cached


class User(AbstractUser):
    """A player or staff member, with display preferences."""

    objects = AccountManager()  # type: ignore[misc]

    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Pages are shown in this language whenever you are signed in."),
    )
    reduced_motion = models.BooleanField(
        _("reduced motion"),
        default=False,
        help_text=_("Cards appear at once, without animation."),
    )
    sound_enabled = models.BooleanField(
        _("sound"),
        default=False,
        help_text=_(
            "Chips, cards, wins and the betting timer make a sound. Off until you turn it on."
        ),
    )
    show_clock = models.BooleanField(
        _("time display"),
        default=True,
        help_text=_("The table shows how long you have been playing and the local time."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        indexes = [
            # Names are compared without case (sign-up's "already taken", support's search
            # by player): without it each such lookup reads every account.
            models.Index(Upper("username"), name="user_username_upper"),
        ]

    def __str__(self) -> str:
        return self.username
