"""The staff roles: "Support" reads everything and voids rounds; "Table admin" configures tables."""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Support": [
        ("baccarat", "view_table"),
        ("baccarat", "view_round"),
        ("baccarat", "view_play"),
        ("baccarat", "view_bet"),
        ("wallet", "view_account"),
        ("wallet", "view_transaction"),
        ("wallet", "view_entry"),
        ("accounts", "view_user"),
    ],
    "Table admin": [
        ("baccarat", "view_table"),
        ("baccarat", "add_table"),
        ("baccarat", "change_table"),
        ("support", "view_tablechange"),
    ],
}


def create_roles(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        for app_label, codename in codenames:
            permission = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if permission is not None:
                group.permissions.add(permission)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("support", "0001_initial"),
        ("accounts", "0001_initial"),
        ("baccarat", "0001_initial"),
        ("wallet", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
