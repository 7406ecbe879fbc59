"""The example's settings with the project's own helper class, which lets automatic upgrades be
stored (upgrade_helper.py): `python3 Examples/django-otp-webauthn/adapter.py --upgrade-helper`."""

from otp_rp.settings import *  # noqa: F401,F403

OTP_WEBAUTHN_HELPER_CLASS = "otp_rp.upgrade_helper.ConditionalUpgradeHelper"
