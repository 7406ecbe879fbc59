"""Django's own sign-in views, the package's WebAuthn endpoints (its registration views subclassed for
the project's MFA policy, project.py) and the project's small account API."""

import os
import sys

from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import include, path
from django_otp_webauthn import views as package_views

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "django-common"))

import project_api  # noqa: E402
from otp_rp.project import BeginCredentialRegistrationView, CompleteCredentialRegistrationView, Hooks  # noqa: E402

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The package's URLs (django_otp_webauthn/urls.py), the two registration views replaced by the
    # project's subclasses, the passkey sign-in wrapped by the project's test-only fault hook.
    path("webauthn/registration/begin/", BeginCredentialRegistrationView.as_view()),
    path("webauthn/registration/complete/", CompleteCredentialRegistrationView.as_view()),
    path("webauthn/authentication/complete/",
         project_api.lookup_guard(package_views.CompleteCredentialAuthenticationView.as_view())),
    path("webauthn/", include("django_otp_webauthn.urls", namespace="otp_webauthn")),
    *project_api.urlpatterns(Hooks),
    path("", lambda request: HttpResponse("home"), name="home"),
]
