"""The Django project around django-passkeys, configured as its documentation describes for a
mobile app: the REST API (django-passkeys[drf]) with Django REST framework's token backend.

The database is the SQLite file named in RP_DATABASE.
"""

import os

SECRET_KEY = "passkey-conformance-example-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "passkeys_rp.urls"
WSGI_APPLICATION = None
USE_TZ = True

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "rest_framework",
    "rest_framework.authtoken",
    "passkeys",
]

MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

AUTHENTICATION_BACKENDS = ["passkeys.backend.PasskeyModelBackend"]
FIDO_SERVER_ID = "login.example.com"
FIDO_SERVER_NAME = "Example"
KEY_ATTACHMENT = None

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    # The authentication-options view is throttled for anonymous clients; the rate is the project's choice.
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute"},
}

TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("RP_DATABASE", ":memory:")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast: the fixtures' passwords are not secrets
