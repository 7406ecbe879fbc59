"""The example relying party's app: what the mobile app does when the user acts, when the platform
answers and when a timer fires.

It talks to its server only through `App.server()` (its network, where the harness can inject a
network failure) and to the device through `platform`, the harness's simulated platform: the
credential manager (registration requests, signals), the clock and timers, the screen and
telemetry. Requests are built in each platform's own shape: androidx.credentials request JSON, and
the fields of Apple's AuthenticationServices classes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple, Optional

from passkey_base64url import b64url_decode, b64url_encode
from server import Refused

# Apple's error for a cancelled sheet, and for a conditional request the credential manager declined.
APPLE_CANCELED = ("com.apple.AuthenticationServices.AuthorizationError", 1001)


# What the app receives from the harness (adapter.py builds these from the wire).

@dataclass
class Device:
    platform: str  # "apple" or "android"
    os_version: str
    library_version: Optional[str] = None  # Android: androidx.credentials
    app_origin: Optional[str] = None
    os_family: Optional[str] = None  # "ios", "ipados", "macos", "visionos", "android"; None: the platform's default

    def apple_at_least(self, ios, macos, visionos):
        """Apple's API floors differ by OS family, as #available(iOS ios, iPadOS ios, macOS macos, visionOS visionos, *)
        checks them; a floor of None means the API does not exist on that family."""
        floor = {"macos": macos, "visionos": visionos}.get(self.os_family or "ios", ios)
        return self.platform == "apple" and floor is not None and at_least(self.os_version, floor)


@dataclass
class Action:
    kind: str
    username: Optional[str] = None
    password: Optional[str] = None
    second_factor: Optional[str] = None
    credential_id: Optional[bytes] = None
    new_name: Optional[str] = None
    new_display_name: Optional[str] = None
    confirmed: Optional[bool] = None


@dataclass
class PlatformError:
    name: str
    message: str
    type: Optional[str] = None
    domain: Optional[str] = None
    code: Optional[int] = None
    retry_millis: Optional[int] = None


@dataclass
class PlatformOutcome:
    error: Optional[PlatformError] = None
    android_registration_json: Optional[str] = None
    apple_registration: Optional[tuple] = None  # (credential id, clientDataJSON, attestation object)


class Outcome(NamedTuple):
    """What the app shows after a user action."""
    status: str
    message: Optional[str] = None


class BadAction(ValueError):
    """The harness sent an action without the arguments it needs."""


class NetworkError(Exception):
    """The app could not reach its server."""


def at_least(version, minimum):
    """Compares dotted version numbers numerically: at_least("26.2", "26.0") is True."""
    def parts(text):
        numbers = [int(part) if part.isdigit() else 0 for part in (text or "0").split(".")]
        while numbers and numbers[-1] == 0:
            numbers.pop()
        return numbers
    return parts(version) >= parts(minimum)


@dataclass
class PendingRegistration:
    conditional: bool
    token: str  # the sign-in the request was made for
    username: str


class App:
    def __init__(self, device: Device, server, platform):
        self.device = device
        self._server = server
        self.platform = platform
        self.token: Optional[str] = None
        self.username: Optional[str] = None
        self.stage = "signed-out"
        self.pending_registrations: dict[str, PendingRegistration] = {}
        self.network_failures = 0  # injected: how many server requests fail next (float("inf"): all)
        self.lost_answers = 0  # injected: how many committed requests lose their answer next (float("inf"): all)
        self.signals = Signals(self)

    def server(self):
        """The server, reached over the network: raises NetworkError while a network fault lasts."""
        if self.network_failures > 0:
            self.network_failures -= 1
            raise NetworkError("the server cannot be reached")
        return self._server

    def committed(self, request):
        """Sends a request the server commits (a registration, a read of the accepted list); its
        answer may be lost on the way back (the fault answer-lost-after-commit): the server's effect
        stays, and the app sees a network error."""
        answer = request(self.server())
        if self.lost_answers > 0:
            self.lost_answers -= 1
            raise NetworkError("the server's answer was lost")
        return answer

    # User actions.

    def perform(self, action: Action) -> Outcome:
        handlers = {
            "password-sign-in": self._password_sign_in,
            "switch-account": self._password_sign_in,
            "second-factor": self._second_factor,
            "recovery-sign-in": self._recovery_sign_in,
            "sign-out": self._sign_out,
            "create-passkey": self._create_passkey,
            "revoke-passkey": self._revoke_passkey,
            "rename": self._rename,
            "refresh": self._refresh,
            "manage-passkeys": self._manage_passkeys,
            "alternative-sign-in": self._alternative_sign_in,
            "relaunch": self._relaunch,
        }
        handler = handlers.get(action.kind)
        if handler is None:  # passkey-sign-in: see README.md
            return Outcome("rejected", f"{action.kind} is not part of this example")
        try:
            return handler(action)
        except NetworkError:
            self.platform.show("error", "No connection. Try again.")
            return Outcome("rejected", "network error")

    def _password_sign_in(self, action):
        if action.username is None or action.password is None:
            raise BadAction(f"{action.kind} needs username and password")
        try:
            token, assurance = self.server().password_sign_in(action.username, action.password)
        except Refused as refusal:
            return Outcome("rejected", str(refusal))
        if assurance == "full":
            self._enter(token, action.username, "signed-in")
            self._start_upgrade()
            return Outcome("signed-in")
        self._enter(token, action.username, "awaiting-second-factor")
        return Outcome("second-factor-required")

    def _second_factor(self, action):
        if action.second_factor is None:
            raise BadAction("second-factor needs secondFactor")
        if self.stage != "awaiting-second-factor":
            return Outcome("rejected", "no second factor is due")
        try:
            self.server().second_factor(self.token, action.second_factor)
        except Refused as refusal:
            return Outcome("rejected", str(refusal))
        self.stage = "signed-in"
        self._start_upgrade()
        return Outcome("signed-in")

    def _recovery_sign_in(self, action):
        if action.username is None:
            raise BadAction("recovery-sign-in needs username")
        try:
            token = self.server().recovery_sign_in(action.username)
        except Refused as refusal:
            return Outcome("rejected", str(refusal))
        self._enter(token, action.username, "signed-in-limited")  # lower assurance: never an upgrade
        return Outcome("signed-in-limited")

    def _alternative_sign_in(self, action):
        if action.username is None:
            raise BadAction("alternative-sign-in needs username")
        try:
            token = self.server().alternative_sign_in(action.username)
        except Refused as refusal:
            return Outcome("rejected", str(refusal))
        self._enter(token, action.username, "signed-in")  # no stored password was used: never an upgrade
        return Outcome("signed-in")

    def _relaunch(self, action):
        """The app restarts: what it held in memory is gone; its persisted session and the server stay."""
        self.pending_registrations = {}
        return Outcome("done")

    def _enter(self, token, username, stage):
        """Makes a new sign-in current; the session it replaces (sign-in again, account switch) ends."""
        previous, self.token, self.username, self.stage = self.token, token, username, stage
        if previous is not None and previous != token:
            try:
                self.server().sign_out(previous)
            except NetworkError:
                pass  # best effort: the server ends the old session when it expires

    def _sign_out(self, action):
        token, self.token, self.username, self.stage = self.token, None, None, "signed-out"
        if token is not None:
            self.server().sign_out(token)
        return Outcome("done")

    def _create_passkey(self, action):
        if self.stage != "signed-in":
            return Outcome("rejected", "sign in first")
        self._start_registration(conditional=False)
        return Outcome("pending")

    def _revoke_passkey(self, action):
        if action.credential_id is None:
            raise BadAction("revoke-passkey needs credentialID")
        if self.stage != "signed-in":
            return Outcome("rejected", "sign in first")
        try:
            username = self.server().revoke(self.token, action.credential_id)
        except Refused as refusal:
            return Outcome("rejected", str(refusal))
        self.signals.reconcile(username)
        return Outcome("done")

    def _rename(self, action):
        if self.stage != "signed-in":
            return Outcome("rejected", "sign in first")
        try:
            username = self.server().rename(self.token, action.new_name, action.new_display_name,
                                            confirmed=action.confirmed is True)
        except Refused as refusal:
            self.platform.show("error", "Your profile could not be saved.")
            return Outcome("rejected", str(refusal))
        self.signals.user_details_changed(username, name_changed=action.new_name is not None)
        return Outcome("done")

    def _refresh(self, action):
        """The app's documented refresh point (returning to the foreground): reconcile if signed in."""
        if self.stage == "signed-in":
            try:
                self.signals.reconcile(self.server().fully_signed_in(self.token))
            except Refused:
                pass  # the session has ended on the server; nothing to reconcile
        return Outcome("done")

    def _manage_passkeys(self, action):
        if self.stage != "signed-in":
            return Outcome("rejected", "sign in first")
        account = self.server().account(self.username)
        self.platform.show("screen", f"Passkeys: {len(account.accepted_ids())}")
        return Outcome("done")

    # Registration: the automatic upgrade and explicit creation.

    def conditional_create_available(self):
        """Whether the platform has a conditional registration request, checked at run time."""
        if self.device.platform == "apple":
            return self.device.apple_at_least(ios="18.0", macos="15.0", visionos="2.0")
        return at_least(self.device.library_version, "1.6.0")

    def _start_upgrade(self):
        """Right after a sign-in that completed the account's whole policy: one conditional request."""
        if not self.conditional_create_available():
            self.platform.telemetry("conditional-create-unavailable",
                                    {"os": self.device.os_version, "library": self.device.library_version or "-"})
            return
        try:
            self._start_registration(conditional=True)
        except NetworkError:
            self.platform.telemetry("conditional-create-skipped", {"reason": "network error"})

    def _start_registration(self, conditional):
        try:
            options = self.server().registration_options(self.token, conditional, self.platform.now())
        except Refused as refusal:
            self.platform.telemetry("registration-options-refused", {"reason": str(refusal)})
            return
        operation = self.platform.create_credential(self._registration_request(options, conditional))
        self.pending_registrations[operation] = PendingRegistration(conditional, self.token, self.username)

    def _registration_request(self, options, conditional):
        if self.device.platform == "apple":
            request = {
                "relyingPartyIdentifier": options.rp_id, "challenge": options.challenge,
                "name": options.user_name, "displayName": options.display_name, "userID": options.user_handle,
                "userVerificationPreference": "preferred",
            }
            if conditional:
                request["requestStyle"] = "conditional"  # iOS 18+, macOS 15+, visionOS 2+; only called there
            if self.device.apple_at_least(ios="17.4", macos="13.5", visionos=None):
                request["excludedCredentials"] = list(options.excluded)
            return {"apple": request}
        creation_options = {
            "challenge": b64url_encode(options.challenge),
            "rp": {"id": options.rp_id, "name": "Example"},
            "user": {"id": b64url_encode(options.user_handle), "name": options.user_name,
                     "displayName": options.display_name},
            "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
            "excludeCredentials": [{"type": "public-key", "id": b64url_encode(credential_id)}
                                   for credential_id in options.excluded],
            "authenticatorSelection": {"residentKey": "required", "requireResidentKey": True,
                                       "userVerification": "preferred"},
            "attestation": "none",
            "timeout": 60_000,
        }
        return {"android": {"requestJson": compact_json(creation_options), "isConditional": conditional,
                            "preferImmediatelyAvailableCredentials": False, "isAutoSelectAllowed": False}}

    # Platform answers and timers.

    def platform_completed(self, operation, outcome: PlatformOutcome):
        pending = self.pending_registrations.pop(operation, None)
        if pending is not None:
            try:
                self._registration_completed(pending, outcome)
            except NetworkError:
                self.platform.telemetry("registration-not-saved", {"reason": "network error"})
                if not pending.conditional:
                    self.platform.show("error", "No connection. The passkey could not be saved.")
        else:
            self.signals.completed(operation, outcome)

    def timer_fired(self, timer):
        self.signals.timer_fired(timer)

    def _registration_completed(self, pending, outcome):
        if outcome.error is not None:
            self._registration_failed(pending, outcome.error)
            return
        if pending.token != self.token:
            # The user signed out, switched account or signed in again meanwhile: discard it.
            self.platform.telemetry("stale-registration-discarded", {"account": pending.username})
            return
        response = registration_response(outcome)
        if response is None:
            self.platform.telemetry("malformed-registration-response", {})
            return
        try:
            username = self.committed(lambda server: server.finish_registration(self.token, *response, self.platform.now()))
        except Refused as refusal:
            self.platform.telemetry("registration-rejected", {"reason": str(refusal)})
            if not pending.conditional:
                self.platform.show("error", "The passkey could not be saved.")
            return
        # No screen of our own: for an automatic upgrade the system tells the user.
        self.signals.reconcile(username)

    def _registration_failed(self, pending, error):
        if pending.conditional:
            if is_expected_no_create(error):
                return  # the credential manager chose to create nothing: no error, no retry
            code = "-" if error.code is None else str(error.code)
            self.platform.telemetry("conditional-create-failed",
                                    {"error": error.name, "type": error.type or "-", "code": code})
        elif not is_cancellation(error):
            self.platform.show("error", "The passkey could not be created.")


def registration_response(outcome):
    """The clientDataJSON and attestation object of a successful registration, either platform."""
    if outcome.apple_registration is not None:
        _, client_data_json, attestation_object = outcome.apple_registration
        return client_data_json, attestation_object
    try:
        response = json.loads(outcome.android_registration_json)["response"]
        return b64url_decode(response["clientDataJSON"]), b64url_decode(response["attestationObject"])
    except (TypeError, ValueError, KeyError):
        return None


def is_expected_no_create(error):
    """The platform's "nothing was created, as expected" answers to a conditional request."""
    return error.name == "CreateCredentialNoCreateOptionException" or (error.domain, error.code) == APPLE_CANCELED


def is_cancellation(error):
    return error.name.endswith("CancellationException") or (error.domain, error.code) == APPLE_CANCELED


# Signals.

RECONCILE_DELAY_MILLIS = 1_000  # one reconciliation this long after the first of several close triggers
ANDROID_SIGNAL_BUDGET = 10  # signalCredentialState calls in any window of ANDROID_SIGNAL_WINDOW_MILLIS
ANDROID_SIGNAL_WINDOW_MILLIS = 120_000

ANDROID = "signalCredentialState"
APPLE_DATA_MANAGER = "ASCredentialDataManager"  # Apple 26.2 and later
APPLE_UPDATER = "ASCredentialUpdater"  # Apple 26.0 and 26.1 (deprecated in 26.2)

ANDROID_SIGNAL_TYPES = {
    "accepted": "androidx.credentials.SIGNAL_ALL_ACCEPTED_CREDENTIALS_REQUEST_TYPE",
    "details": "androidx.credentials.SIGNAL_CURRENT_USER_DETAILS_STATE_REQUEST_TYPE",
}


# What a signal is for. A retry or a deferred signal is rebuilt from its intent, so that it carries
# the server's state at the time it is sent, never an old payload.

class Reconcile(NamedTuple):
    username: str


class UserDetails(NamedTuple):
    username: str


class Signals:
    """The app's signals to the credential manager: the interface chosen at run time, reconciliation
    coalesced per account, the Android budget, and retries built from the state at retry time."""

    def __init__(self, app: App):
        self.app = app
        self.platform = app.platform
        self.reconcile_timers: dict[str, str] = {}  # account -> its pending reconciliation's timer
        self.timer_intents: dict[str, tuple] = {}  # timer -> what it sends when it fires
        self.in_flight: dict[str, tuple] = {}  # operation -> (intent, issued at)
        self.android_calls: list[int] = []  # times of this app's signalCredentialState calls
        self.blocked_until = 0  # no Android signal before this time (the platform's retryMillis)

    @property
    def interface(self):
        """The signal interface this device offers, or None."""
        device = self.app.device
        if device.platform == "apple":
            if at_least(device.os_version, "26.2"):
                return APPLE_DATA_MANAGER
            return APPLE_UPDATER if at_least(device.os_version, "26.0") else None
        if at_least(device.os_version, "15") and at_least(device.library_version, "1.6.0"):
            return ANDROID
        return None

    def reconcile(self, username):
        """Schedules one reconciliation of the account's accepted list; close triggers share it."""
        if self.interface is not None:
            self._schedule(Reconcile(username), RECONCILE_DELAY_MILLIS, f"reconcile {username}")

    def user_details_changed(self, username, name_changed):
        """After a confirmed rename. Apple's report carries the name only: nothing to say otherwise."""
        if self.interface == ANDROID or (self.interface is not None and name_changed):
            self._send(UserDetails(username))

    def timer_fired(self, timer):
        intent = self.timer_intents.pop(timer, None)
        if intent is None:
            return
        if isinstance(intent, Reconcile) and self.reconcile_timers.get(intent.username) == timer:
            del self.reconcile_timers[intent.username]
        self._send(intent)

    def completed(self, operation, outcome: PlatformOutcome):
        """The platform's answer to a signal. Acceptance says nothing about what any provider did."""
        intent, issued_at = self.in_flight.pop(operation, (None, None))
        if intent is None or outcome.error is None:
            return
        if outcome.error.retry_millis is not None:
            self.blocked_until = max(self.blocked_until, issued_at + outcome.error.retry_millis)
            self._schedule(intent, outcome.error.retry_millis, "retry a rate-limited signal")
        else:
            self.platform.telemetry("signal-failed", {"error": outcome.error.name})

    def _schedule(self, intent, after_millis, label):
        if isinstance(intent, Reconcile):
            if intent.username in self.reconcile_timers:
                return  # the pending reconciliation will carry the latest state
            timer = self.platform.schedule_timer(after_millis, label)
            self.reconcile_timers[intent.username] = timer
        else:
            timer = self.platform.schedule_timer(after_millis, label)
        self.timer_intents[timer] = intent

    def _send(self, intent):
        """Builds the signal from the server's current state and hands it to the platform."""
        if isinstance(intent, (Reconcile, UserDetails)) and not self._signed_in(intent.username):
            return  # an account's list and details leave only while it is signed in: its pending work is dropped
        interface = self.interface
        now = self.platform.now()
        if interface == ANDROID:
            wait = self._android_wait(now)
            if wait > 0:
                self._schedule(intent, wait, "signal deferred by the rate budget")
                return
        try:
            request = self._build(intent, interface)
        except (Refused, NetworkError) as reason:
            self.platform.telemetry("signal-skipped", {"account": intent.username, "reason": str(reason)})
            return
        if interface == ANDROID:
            self.android_calls.append(now)
        self.in_flight[self.platform.signal(request)] = (intent, now)

    def _signed_in(self, username):
        """Whether the account is the app's signed-in account (fully or with lower assurance)."""
        return self.app.stage in ("signed-in", "signed-in-limited") and self.app.username == username

    def _android_wait(self, now):
        """How long until an Android signal keeps within the platform's answer and the budget."""
        self.android_calls = [time for time in self.android_calls if time > now - ANDROID_SIGNAL_WINDOW_MILLIS]
        wait = self.blocked_until - now
        if len(self.android_calls) >= ANDROID_SIGNAL_BUDGET:
            oldest_counted = self.android_calls[-ANDROID_SIGNAL_BUDGET]
            wait = max(wait, oldest_counted + ANDROID_SIGNAL_WINDOW_MILLIS - now + 1)
        return wait

    def _build(self, intent, interface):
        server = self.app.server()
        account = server.account(intent.username)
        if isinstance(intent, Reconcile):
            # Refuses rather than send a partial list; a lost answer is a network error, and nothing is sent.
            ids = self.app.committed(lambda server: server.accepted_list(intent.username))
            if interface == ANDROID:
                return android_signal("accepted", rpId=account.rp_id, userId=b64url_encode(account.user_handle),
                                      allAcceptedCredentialIds=[b64url_encode(credential_id) for credential_id in ids])
            return apple_signal(interface, "reportAllAcceptedPublicKeyCredentials", account.rp_id,
                                userHandle=account.user_handle, acceptedCredentialIDs=ids)
        if interface == ANDROID:
            return android_signal("details", rpId=account.rp_id, userId=b64url_encode(account.user_handle),
                                  name=account.name, displayName=account.display_name)
        return apple_signal(interface, "reportPublicKeyCredentialUpdate", account.rp_id,
                            userHandle=account.user_handle, newName=account.name)


def android_signal(kind, **request_json):
    """A SignalCredentialStateRequest: its type and its JSON, where ids are base64url text."""
    return {"android": {"type": ANDROID_SIGNAL_TYPES[kind], "requestJson": compact_json(request_json)}}


def apple_signal(interface, method, rp_id, **arguments):
    """A call of an Apple report method, with raw bytes (Data) as arguments."""
    return {"apple": {"interface": interface, "method": method, "relyingPartyIdentifier": rp_id, **arguments}}


def compact_json(value):
    return json.dumps(value, separators=(",", ":"))
