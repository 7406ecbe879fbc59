"""The few views a Django project writes beside its passkey package, as plain Django views: who am I,
the account's accepted credential ids with its user handle, revocation (where the package has no
endpoint of its own), a profile rename, and the test-only fault hook. The paths are those
`../loopback-common/loopback_rp.py` documents; each example's `urls.py` mounts `urlpatterns(hooks)`.

`hooks` is the project's knowledge of its package, an object with:

    authenticate(request) -> user or None        how a request is signed in (session, token)
    token_authenticated                          True when a token header signs requests in: no cookie,
                                                 so no CSRF check (as the package's own API views)
    key(user) -> str                             the account's sign-in identity, which a rename leaves alone
    user_handle(user) -> bytes                   the WebAuthn user handle the package gives the user
    account_name(user), display_name(user)       the names the package puts into its options
    credentials(user) -> [(credential id bytes, package id)]   the accepted (usable) credentials
    revoke(user, credential id bytes) -> bool    optional: only where the package has no endpoint
    rename(user, name or None, display name or None)
    second_factor_due(request, user) -> bool     optional: the session still owes a second factor
    verify_second_factor(request, user, code) -> bool   optional: checks the code, completes the sign-in
"""

import base64
import json
import os
import sys

from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "loopback-common"))

import project_faults  # noqa: E402

RP_ID = "login.example.com"


def b64url(data):
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _body(request):
    try:
        value = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def urlpatterns(hooks):
    def signed_in(view):
        def wrapped(request):
            user = hooks.authenticate(request)
            if user is None:
                return JsonResponse({"detail": "sign in first"}, status=401)
            return view(request, user)
        wrapped.__name__ = view.__name__
        return csrf_exempt(wrapped) if getattr(hooks, "token_authenticated", False) else wrapped

    @signed_in
    def me(request, user):
        answer = {"username": hooks.key(user), "userHandle": b64url(hooks.user_handle(user)),
                  "name": hooks.account_name(user), "displayName": hooks.display_name(user), "rpID": RP_ID}
        if getattr(hooks, "second_factor_due", None):
            answer["secondFactorDue"] = hooks.second_factor_due(request, user)
        return JsonResponse(answer)

    @signed_in
    def second_factor(request, user):
        body = _body(request)
        if body is None or not isinstance(body.get("code"), str):
            return JsonResponse({"detail": "code is missing"}, status=400)
        if not getattr(hooks, "verify_second_factor", None):
            return JsonResponse({"detail": "this project has no second factor"}, status=404)
        if not hooks.verify_second_factor(request, user, body["code"]):
            return JsonResponse({"detail": "the code is wrong or has expired"}, status=400)
        return JsonResponse({"username": hooks.key(user)})

    @signed_in
    def credentials(request, user):
        try:
            items = project_faults.accepted_list(user.pk, lambda: [
                {"credentialID": b64url(credential_id), "packageID": package_id}
                for credential_id, package_id in hooks.credentials(user)])
        except project_faults.StoreFailure as failure:
            return JsonResponse({"detail": str(failure)}, status=failure.status)
        return JsonResponse({"username": hooks.key(user), "userHandle": b64url(hooks.user_handle(user)),
                             "credentials": items})

    @signed_in
    def revoke(request, user):
        body = _body(request)
        if body is None or not isinstance(body.get("credentialID"), str):
            return JsonResponse({"detail": "credentialID is missing"}, status=400)
        if not getattr(hooks, "revoke", None):
            return JsonResponse({"detail": "revoke passkeys through the package's own endpoint"}, status=404)
        if not hooks.revoke(user, unb64url(body["credentialID"])):
            return JsonResponse({"detail": "no such passkey"}, status=404)
        return JsonResponse({"username": hooks.key(user)})

    @signed_in
    def profile(request, user):
        body = _body(request)
        if body is None or not (body.keys() <= {"name", "displayName"}) or not body:
            return JsonResponse({"detail": "give name, displayName or both"}, status=400)
        hooks.rename(user, body.get("name"), body.get("displayName"))
        return JsonResponse({"username": hooks.key(user)})

    @csrf_exempt
    def fault(request):
        body = _body(request) or {}
        try:
            project_faults.arm(body.get("kind"), body.get("count"))
        except ValueError as error:
            return JsonResponse({"detail": str(error)}, status=400)
        return JsonResponse({})

    @csrf_exempt
    def reset(request):
        project_faults.reset()
        return JsonResponse({})

    return [
        path("project/me", me),
        path("project/credentials", credentials),
        path("project/credentials/revoke", revoke),
        path("project/profile", profile),
        path("project/second-factor", second_factor),
        path("project/test/fault", fault),
        path("project/test/reset", reset),
    ]


def presented_credential_id(request):
    """The raw id of the credential a passkey sign-in request presents (`credential.rawId`), or None."""
    body = _body(request) or {}
    credential = body.get("credential")
    if isinstance(credential, str):
        try:
            credential = json.loads(credential)
        except ValueError:
            return None
    try:
        return unb64url(credential["rawId"])
    except (TypeError, KeyError, ValueError):
        return None


def lookup_guard(view, is_revoked=None):
    """Wraps the package's passkey sign-in endpoint: an armed `credential-lookup-failure` answers 503
    before the package looks the credential up (the store could not be asked). With `is_revoked`
    (a project that keeps an audit record of removed passkeys), a removed passkey is refused as
    such (403) before the package, which no longer has it, calls it unknown."""
    def wrapped(request, *args, **kwargs):
        if request.method == "POST" and project_faults.take("credential-lookup-failure"):
            return JsonResponse({"detail": "the credential store did not answer"}, status=503)
        if request.method == "POST" and is_revoked is not None:
            credential_id = presented_credential_id(request)
            if credential_id is not None and is_revoked(credential_id):
                return JsonResponse({"detail": "This passkey has been removed from its account."}, status=403)
        return view(request, *args, **kwargs)
    for attribute in ("csrf_exempt", "__name__"):
        if hasattr(view, attribute):
            setattr(wrapped, attribute, getattr(view, attribute))
    return wrapped
