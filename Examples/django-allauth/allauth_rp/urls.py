"""allauth's headless API as its documentation mounts it (the passkey sign-in wrapped by the
project's test-only fault hook and its record of removed passkeys) and the project's small account API."""

import os
import sys

from django.urls import include, path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "django-common"))

import project_api  # noqa: E402
from allauth.headless.constants import Client  # noqa: E402
from allauth.headless.mfa.views import LoginWebAuthnView  # noqa: E402
from allauth_rp.project import Hooks, is_revoked  # noqa: E402

urlpatterns = [
    path("_allauth/app/v1/auth/webauthn/login",
         project_api.lookup_guard(LoginWebAuthnView.as_api_view(client=Client.APP), is_revoked)),
    path("_allauth/", include("allauth.headless.urls")),
    *project_api.urlpatterns(Hooks),
]
