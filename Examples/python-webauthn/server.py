"""The example relying party's server, in memory: accounts, sessions, registration and sign-in
ceremonies, credential records, and a paged credential store that faults can be injected into.

The WebAuthn checks themselves (client data, authenticator data, attestation, signatures) are done by
a real library (verifiers.py); this file holds the relying party's own logic around them: which
ceremony a response answers, which account a credential belongs to, and what the store returns.

In a real adapter this is your server. The harness reaches it in two ways: through the app (every
call in app.py goes through `App.server()`, the app's network), and directly for fixtures and
inspections (adapter.py), which a real adapter would do through a test-only back door.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Optional

from passkey_base64url import b64url_decode
from verifiers import Rejected

CHALLENGE_LIFETIME_MILLIS = 5 * 60 * 1000
PAGE_SIZE = 2  # credentials per page of the store's listing

# Session assurance levels.
PASSWORD_ONLY = "password-only"  # the password was accepted; a second factor is still due
FULL = "full"  # the account's complete sign-in policy succeeded
LIMITED = "limited"  # a lower-assurance sign-in (account recovery)

FAULT_KINDS = ("partial-credential-data", "pagination-failure", "credential-list-timeout", "stale-cache",
               "credential-lookup-failure")


class Refused(Exception):
    """The server refused a request; the message is what the app logs or shows. `flags` and
    `rejected_flags` come from the verification library when it rejected the response."""

    def __init__(self, message, flags="", rejected_flags=""):
        super().__init__(message)
        self.flags, self.rejected_flags = flags, rejected_flags


class LookupFailed(Exception):
    """The credential store could not say whether it holds a credential id."""


@dataclass
class AccountFixture:
    username: str
    display_name: str
    password: str
    policy: str  # "password-only" or "password-and-second-factor"
    rp_id: str
    restricted: bool = False


@dataclass
class Credential:
    id: bytes
    public_key: bytes  # COSE_Key bytes
    sign_count: int
    state: str  # "active" or "revoked"
    rp_id: str
    backup_eligible: bool


@dataclass
class Account:
    username: str
    account_id: str  # the product's own id; never used as the WebAuthn user handle
    user_handle: bytes  # 32 random bytes, opaque
    rp_id: str
    name: str  # the account name passkeys show; starts as the username
    display_name: str
    password: str
    policy: str
    restricted: bool
    credentials: list = field(default_factory=list)

    def accepted_ids(self):
        return [credential.id for credential in self.credentials if credential.state == "active"]


@dataclass
class Session:
    username: str
    assurance: str


@dataclass
class Ceremony:
    """A registration the server issued options for, bound to the session that asked, or a sign-in
    (kind "authentication", no session or account yet)."""
    challenge: bytes
    token: Optional[str]
    username: Optional[str]
    rp_id: str
    conditional: bool
    issued_at: int
    kind: str = "registration"


@dataclass
class SignInResult:
    """How a passkey sign-in ended: "signed-in" (username, token), "unknown-credential" (no account of
    the RP ID holds the id), "revoked" (username), "restricted", "expired" or "invalid" (message)."""
    kind: str
    username: Optional[str] = None
    token: Optional[str] = None
    message: str = ""


@dataclass
class RegistrationOptions:
    challenge: bytes
    rp_id: str
    user_handle: bytes
    user_name: str
    display_name: str
    excluded: list  # every credential id the server holds for the account


class Server:
    def __init__(self, seed: int, app_origin: Optional[str], verifier):
        self.rng = random.Random(seed)
        self.verifier = verifier  # verifiers.PyWebAuthnVerifier or verifiers.Fido2Verifier
        self.app_origin = app_origin  # Android: the app's apk-key-hash origin
        self.accounts: dict[str, Account] = {}
        self.sessions: dict[str, Session] = {}
        self.ceremonies: dict[bytes, Ceremony] = {}
        self.next_session = 1
        # The credential store: a version per account, a cache in front, and injected faults
        # (kind -> remaining uses, or None for "until the end of the test case").
        self.versions: dict[str, int] = {}
        self.cache: dict[str, tuple] = {}
        self.faults: dict[str, Optional[int]] = {}

    # Accounts (fixtures and inspections).

    def create_account(self, fixture: AccountFixture):
        account_id = f"acct-{len(self.accounts) + 1:06d}"
        self.accounts[fixture.username] = Account(
            username=fixture.username, account_id=account_id, user_handle=self.rng.randbytes(32), rp_id=fixture.rp_id,
            name=fixture.username, display_name=fixture.display_name, password=fixture.password, policy=fixture.policy,
            restricted=fixture.restricted)

    def account(self, username: str) -> Account:
        if username not in self.accounts:
            raise Refused(f"no account {username}")
        return self.accounts[username]

    def add_credential(self, username, credential_id, public_key, sign_count, state):
        account = self.account(username)
        account.credentials.append(Credential(credential_id, public_key, sign_count, state, account.rp_id,
                                              backup_eligible=True))
        self._changed(username)

    # Sessions.

    def _open_session(self, username, assurance):
        token = f"session-{self.next_session}"
        self.next_session += 1
        self.sessions[token] = Session(username, assurance)
        return token

    def password_sign_in(self, username, password):
        """Returns the new session's token and its assurance (FULL or PASSWORD_ONLY)."""
        account = self.accounts.get(username)
        if account is None or account.password != password:
            raise Refused("wrong username or password")
        if account.restricted:
            raise Refused("this account is restricted")
        assurance = FULL if account.policy == "password-only" else PASSWORD_ONLY
        return self._open_session(username, assurance), assurance

    def second_factor(self, token, outcome):
        session = self.sessions.get(token)
        if session is None or session.assurance != PASSWORD_ONLY:
            raise Refused("no second factor is due")
        if outcome == "wrong":
            raise Refused("the code is wrong")
        if outcome != "correct":
            raise Refused("the code has expired")
        session.assurance = FULL

    def recovery_sign_in(self, username):
        account = self.accounts.get(username)
        if account is None or account.restricted:
            raise Refused("account recovery is not possible for this account")
        return self._open_session(username, LIMITED)

    def alternative_sign_in(self, username):
        """A magic link, one-time code or federated sign-in: a full session, but no stored password was used."""
        account = self.accounts.get(username)
        if account is None or account.restricted:
            raise Refused("this sign-in is not possible for this account")
        return self._open_session(username, FULL)

    def sign_out(self, token):
        """Ends a session and every ceremony it started: a late response for it is refused."""
        self.sessions.pop(token, None)
        self.ceremonies = {key: ceremony for key, ceremony in self.ceremonies.items() if ceremony.token != token}

    def fully_signed_in(self, token) -> str:
        """The username of a session that completed its account's whole sign-in policy."""
        session = self.sessions.get(token)
        if session is None or session.assurance != FULL:
            raise Refused("sign in first")
        return session.username

    # Registration.

    def registration_options(self, token, conditional, now) -> RegistrationOptions:
        """Options for a registration by the session's own account, remembered under their challenge."""
        account = self.account(self.fully_signed_in(token))
        challenge = self.rng.randbytes(32)
        self.ceremonies[challenge] = Ceremony(challenge, token, account.username, account.rp_id, conditional, now)
        return RegistrationOptions(challenge, account.rp_id, account.user_handle, account.name, account.display_name,
                                   excluded=[credential.id for credential in account.credentials])

    def finish_registration(self, token, credential_id, client_data_json, attestation_object, now) -> str:
        """Verifies a registration response and stores the credential; returns the account's username.

        The response must answer options this server issued to this same, still fully signed-in
        session, within the challenge's lifetime. Whether user presence may be absent is decided
        by those options (conditional or not), never by anything the client sends.
        """
        challenge = challenge_of(client_data_json)
        ceremony = self.ceremonies.pop(challenge, None)  # a challenge is good for one attempt
        if ceremony is None or ceremony.kind != "registration":
            raise Refused("no registration ceremony for this challenge")
        session = self.sessions.get(token)
        same_sign_in = ceremony.token == token and session is not None and session.assurance == FULL
        if not same_sign_in or session.username != ceremony.username:
            raise Refused("the response does not belong to the current sign-in")
        if now - ceremony.issued_at > CHALLENGE_LIFETIME_MILLIS:
            raise Refused("the challenge has expired")
        try:
            credential = self.verifier.verify_registration(
                credential_id=credential_id, client_data_json=client_data_json, attestation_object=attestation_object,
                challenge=ceremony.challenge, rp_id=ceremony.rp_id, origins=self._origins(ceremony.rp_id),
                conditional=ceremony.conditional)
        except Rejected as error:
            raise Refused(str(error), error.flags, error.rejected_flags) from None
        if any(stored.id == credential.credential_id
               for account in self.accounts.values() for stored in account.credentials):
            raise Refused("this credential id is already registered")
        account = self.account(ceremony.username)
        account.credentials.append(Credential(credential.credential_id, credential.public_key, credential.sign_count,
                                              "active", ceremony.rp_id, credential.backup_eligible))
        self._changed(account.username)
        return account.username

    # Passkey sign-in.

    def authentication_options(self, rp_id, now) -> bytes:
        """A sign-in challenge for discoverable credentials of an RP ID (no allow list)."""
        challenge = self.rng.randbytes(32)
        self.ceremonies[challenge] = Ceremony(challenge, None, None, rp_id, False, now, kind="authentication")
        return challenge

    def finish_authentication(self, credential_id, client_data_json, authenticator_data, signature, user_handle,
                              now) -> SignInResult:
        """Verifies an assertion and opens a fully signed-in session for the credential's account.

        Raises LookupFailed when the store cannot say whether it holds the credential id: then the
        server knows nothing about the credential, and neither may the app claim anything.
        """
        try:
            challenge = challenge_of(client_data_json)
        except Refused as refusal:
            return SignInResult("invalid", message=str(refusal))
        ceremony = self.ceremonies.get(challenge)
        if ceremony is None or ceremony.kind != "authentication":
            return SignInResult("invalid", message="no sign-in ceremony for this challenge")
        if self._take_fault("credential-lookup-failure"):
            raise LookupFailed("the credential store did not answer")
        owner = next((account for account in self.accounts.values() if account.rp_id == ceremony.rp_id
                      and any(stored.id == credential_id for stored in account.credentials)), None)
        if owner is None:
            return SignInResult("unknown-credential", message="no account holds this credential")
        stored = next(stored for stored in owner.credentials if stored.id == credential_id)
        if stored.state != "active":
            return SignInResult("revoked", username=owner.username, message="the passkey has been revoked")
        if owner.restricted:
            return SignInResult("restricted", username=owner.username, message="this account is restricted")
        if now - ceremony.issued_at > CHALLENGE_LIFETIME_MILLIS:
            del self.ceremonies[challenge]
            return SignInResult("expired", message="the challenge has expired")
        if user_handle is not None and user_handle != owner.user_handle:
            return SignInResult("invalid", message="the user handle is not the credential's account's")
        try:
            stored.sign_count = self.verifier.verify_assertion(
                credential_id=credential_id, client_data_json=client_data_json, authenticator_data=authenticator_data,
                signature=signature, user_handle=user_handle, challenge=ceremony.challenge, rp_id=ceremony.rp_id,
                origins=self._origins(ceremony.rp_id), public_key=stored.public_key, sign_count=stored.sign_count)
        except Rejected as error:
            return SignInResult("invalid", message=str(error))
        del self.ceremonies[challenge]  # a challenge is good for one successful sign-in
        return SignInResult("signed-in", username=owner.username, token=self._open_session(owner.username, FULL))

    def _origins(self, rp_id):
        """The origins a response may come from: the RP's web origin and the Android app's own."""
        return {f"https://{rp_id}"} | ({self.app_origin} if self.app_origin else set())

    # Passkey management and profile.

    def revoke(self, token, credential_id) -> str:
        account = self.account(self.fully_signed_in(token))
        for credential in account.credentials:
            if credential.id == credential_id and credential.state == "active":
                credential.state = "revoked"
                self._changed(account.username)
                return account.username
        raise Refused("no such passkey")

    def rename(self, token, name, display_name, confirmed) -> str:
        account = self.account(self.fully_signed_in(token))
        if not confirmed:
            raise Refused("the change was not confirmed")
        if name is not None:
            account.name = name
        if display_name is not None:
            account.display_name = display_name
        return account.username

    # The accepted list for reconciliation.

    def accepted_list(self, username) -> list:
        """The account's complete, current list of accepted credential ids.

        Refuses (raises Refused) rather than return anything it cannot prove complete and current:
        every page must load, the pages must add up to the store's total, and a cached list is used
        only if it is as new as the store. An empty list is returned only when the store confirms
        that the account has no accepted credential.
        """
        account = self.account(username)
        version = self.versions.get(username, 0)
        if self._take_fault("stale-cache"):
            cached = self.cache.get(username)
            if cached is not None and cached[0] == version:
                return list(cached[1])
            # The cache is behind the store: read the store instead.
        accepted = account.accepted_ids()
        collected, page = [], 0
        while True:
            ids, total, more = self._read_page(accepted, page)
            collected += ids
            if not more:
                break
            page += 1
        if len(collected) != total:
            raise Refused(f"the store returned {len(collected)} of {total} credentials")
        self.cache[username] = (version, collected)
        return list(collected)

    def _read_page(self, accepted, index):
        """One page of the store's listing: its ids, the total the store reports, whether more follow."""
        start = index * PAGE_SIZE
        is_last = start + PAGE_SIZE >= len(accepted)
        if self._take_fault("credential-list-timeout"):
            raise Refused("the credential query timed out")
        if is_last and self._take_fault("pagination-failure"):
            raise Refused(f"page {index + 1} of the credential list failed to load")
        ids = accepted[start:start + PAGE_SIZE]
        if is_last and ids and self._take_fault("partial-credential-data"):
            ids = ids[:-1]
        return ids, len(accepted), not is_last

    # Faults and store versions.

    def inject(self, kind, count: Optional[int]):
        self.faults[kind] = count

    def _take_fault(self, kind):
        """Uses up one application of a fault; False when it is not active."""
        if kind not in self.faults:
            return False
        remaining = self.faults[kind]
        if remaining is not None:
            if remaining <= 1:
                del self.faults[kind]
            else:
                self.faults[kind] = remaining - 1
        return True

    def _changed(self, username):
        self.versions[username] = self.versions.get(username, 0) + 1


def challenge_of(client_data_json) -> bytes:
    """The challenge a response answers, read from its clientDataJSON (the library checks the rest)."""
    try:
        return b64url_decode(json.loads(client_data_json.decode("utf-8"))["challenge"])
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise Refused("clientDataJSON has no readable challenge") from None
