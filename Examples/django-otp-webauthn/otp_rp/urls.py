"""Django's own sign-in views and the package's WebAuthn endpoints, as its documentation mounts them."""

from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import include, path

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("webauthn/", include("django_otp_webauthn.urls", namespace="otp_webauthn")),
    path("", lambda request: HttpResponse("home"), name="home"),
]
