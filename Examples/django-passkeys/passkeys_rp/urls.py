"""Django REST framework's token sign-in, the package's REST API as its DRF guide mounts it (the
passkey sign-in wrapped by the project's test-only fault hook) and the project's small account API."""

import os
import sys

from django.urls import include, path
from passkeys.api.views import AuthenticateVerifyAPIView
from rest_framework.authtoken.views import obtain_auth_token

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "django-common"))

import project_api  # noqa: E402
from passkeys_rp.project import Hooks  # noqa: E402

urlpatterns = [
    path("api/token/", obtain_auth_token),
    path("passkeys/api/authenticate/verify", project_api.lookup_guard(AuthenticateVerifyAPIView.as_view())),
    path("passkeys/api/", include("passkeys.api.urls")),
    *project_api.urlpatterns(Hooks),
]
