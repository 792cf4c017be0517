"""The staff roles: groups that open the support area and the table admin."""

from __future__ import annotations

from typing import Any

SUPPORT_GROUP = "Support"
TABLE_ADMIN_GROUP = "Table admin"


def is_support(user: Any) -> bool:
    """Support staff (the group) and superusers; active accounts only."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return any(group.name == SUPPORT_GROUP for group in user.groups.all())
