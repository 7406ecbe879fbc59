"""The Django project around django-otp-webauthn, configured as its documentation describes.

One RP ID; the allowed origins are the RP's web origin and the Android app's origin (the
simulated app's apk-key-hash). The database is the SQLite file named in RP_DATABASE.
"""

import os

SECRET_KEY = "passkey-conformance-example-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "otp_rp.urls"
WSGI_APPLICATION = None
USE_TZ = True

RP_ID = "login.example.com"
ANDROID_APP_ORIGIN = "android:apk-key-hash:pGqTtS2CkmrhUe9yVdUlq3vl8JgWbaJ7wT4KiOOl1b4"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django_otp",
    "django_otp.plugins.otp_totp",  # the second factor of the accounts whose policy asks for one
    "django_otp_webauthn",
]

MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "django_otp_webauthn.backends.WebAuthnBackend",
]

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(os.path.dirname(__file__), "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]

DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("RP_DATABASE", ":memory:")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast: the fixtures' passwords are not secrets

# The test gives wrong and expired codes on purpose; django_otp's documented switch turns its
# throttling (a growing delay after each failure) off.
OTP_TOTP_THROTTLE_FACTOR = 0

LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

OTP_WEBAUTHN_RP_ID = RP_ID
OTP_WEBAUTHN_RP_NAME = "Example"
OTP_WEBAUTHN_ALLOWED_ORIGINS = [f"https://{RP_ID}", ANDROID_APP_ORIGIN]
# The package's system check accepts only https:// origins (django_otp_webauthn/checks.py,
# check_settings_allowed_origins_misconfigured); py_webauthn itself compares the Android app's
# origin like any other, so the check is silenced to let the Android app register and sign in.
SILENCED_SYSTEM_CHECKS = ["otp_webauthn.E031"]

# The package logs why py_webauthn rejected a response (its API answers only a generic message).
LOGGING = {
    "version": 1,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django_otp_webauthn": {"handlers": ["stderr"], "level": "ERROR"}},
}
