"""Recovery codes stored as keyed digests (``casino.accounts.two_factor``): the codes
issued before are digested in place, so they keep working. Not reversible: a digest
cannot be turned back into its code (going back, staff ask for new codes)."""

from django.db import migrations
from django.utils.crypto import salted_hmac

SALT = "casino.accounts.recovery-code"  # two_factor.RECOVERY_DIGEST_SALT, as it was then
DIGEST_LENGTH = 16


def digest_plain_codes(apps, schema_editor):
    StaticToken = apps.get_model("otp_static", "StaticToken")
    for token in StaticToken.objects.all():
        is_digest = len(token.token) == DIGEST_LENGTH and all(
            c in "0123456789abcdef" for c in token.token
        )
        if not is_digest:  # an issued code: 8 letters and digits of base32
            code = "".join(token.token.split()).lower()
            token.token = salted_hmac(SALT, code, algorithm="sha256").hexdigest()[:DIGEST_LENGTH]
            token.save(update_fields=["token"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_sound_off_and_time_display"),
        ("otp_static", "0003_add_timestamps"),
    ]

    operations = [migrations.RunPython(digest_plain_codes, migrations.RunPython.noop)]
