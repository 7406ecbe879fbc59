"""The Django project around django-allauth 65.21.1, configured as its documentation describes for a
mobile app: the headless API's `app` client (session tokens in X-Session-Token), allauth.mfa with
WebAuthn and passkey login, username and password sign-in, behind a TLS proxy.

The database is the SQLite file named in RP_DATABASE.
"""

import os

SECRET_KEY = "passkey-conformance-example-only"
DEBUG = False
# Behind a TLS proxy, as a deployment is: the public host (allauth derives the RP ID from it,
# mfa/adapter.py get_public_key_credential_rp_entity) and scheme come from the proxy's headers.
ALLOWED_HOSTS = ["login.example.com", "127.0.0.1", "localhost"]
USE_X_FORWARDED_HOST = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
ROOT_URLCONF = "allauth_rp.urls"
WSGI_APPLICATION = None
USE_TZ = True

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.headless",
    "allauth_rp",  # the project's audit record of removed passkeys (models.py)
]

MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                       "django.contrib.messages.context_processors.messages"]},
}]

DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("RP_DATABASE", ":memory:")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast: the fixtures' passwords are not secrets
# allauth mails a notice when a passkey is added; the test keeps mail in memory.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# allauth: an app client of the headless API only.
HEADLESS_ONLY = True
HEADLESS_CLIENTS = ("app",)
HEADLESS_FRONTEND_URLS = {
    "account_confirm_email": "https://login.example.com/account/verify-email/{key}",
    "account_reset_password_from_key": "https://login.example.com/account/password/reset/key/{key}",
    "account_signup": "https://login.example.com/account/signup",
}
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
# The test signs in hundreds of times from one address: allauth's documented switch turns its rate
# limits off.
ACCOUNT_RATE_LIMITS = False

# allauth.mfa: WebAuthn, and passkeys as a way to sign in (MFA_PASSKEY_LOGIN_ENABLED); TOTP, the
# second factor of the accounts whose policy asks for one. Recovery codes are left out: allauth would generate them with the first passkey, a second authenticator the
# app never uses. No MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN: it accepts every origin (its documentation
# calls it a development setting), so the Android app's origin is refused (see the README).
MFA_SUPPORTED_TYPES = ["webauthn", "totp"]
MFA_PASSKEY_LOGIN_ENABLED = True
# allauth refuses a TOTP code used once already within its period (a cache entry, totp/internal/auth.py
# _mark_code_used). The harness's virtual minutes do not move the server's clock, so a scenario
# that signs in twice with a second factor would present the same code within one real period:
# the test runs without a cache.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
