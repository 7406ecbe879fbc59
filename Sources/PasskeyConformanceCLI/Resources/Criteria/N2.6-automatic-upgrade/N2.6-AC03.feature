# Criterion N2.6-AC03 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC03 @level:core @group:N2.6 @requires:conditional-create-api @needs:account-switch
Feature: N2.6-AC03 The upgrade is built for the account that just signed in

  Statement:
    The registration options of an automatic upgrade belong to the account whose sign-in completed
    just before: its name and its opaque WebAuthn user handle. Options left over from an earlier
    account, or a product account id in place of the user handle, bind the new passkey to the
    wrong identity.
  Verification:
    Sign in as one account, switch to a second one while the credential manager keeps passwords for
    both, and compare the user name and user handle of the request issued for the second sign-in
    with the server's record of that account; look for the accounts' names and ids inside the user
    handle in every encoding an app might use; switch by hand to the second account while the first
    has server-known passkeys and compare the exclusions and the challenge with the first account's.
  Items:
    V1: sign in as A, then switch to B while the provider keeps both: user handle and name are B's only
    V2: the user handle is B's opaque WebAuthn user handle, not a product account id and not A's; it carries no username, email, display name or account id in UTF-8, hex, base64, base64url or UUID form
    V3: B's request carries none of A's context (not A's exclusion list, not A's challenge), even while A has server-known passkeys and B typed the password by hand
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
  Source: N2.6-AC03, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    WebAuthn Level 3, user.id is an opaque user handle of 1 to 64 bytes

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And an account "bob" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"
    And the credential manager holds a saved password for "bob"

  @verify:N2.6-AC03.V1
  Scenario: After switching accounts the request names the new account
    When the user signs in as "alice" with the autofilled password
    And the user switches to "bob" with the autofilled password
    Then the last registration request names "bob" and no other account

  @verify:N2.6-AC03.V2
  Scenario: The user handle is the account's opaque WebAuthn user handle
    When the user signs in as "alice" with the autofilled password
    And the user switches to "bob" with the autofilled password
    Then the last registration request carries the WebAuthn user handle of "bob"
    And no registration request carries a product account id as its user handle
    And the user handle of every registration request is opaque

  @verify:N2.6-AC03.V3
  Scenario: A hand-typed switch carries nothing of the first account's context
    Given the server holds 2 passkeys for "alice" made with other credential managers
    When the user signs in as "alice" with the autofilled password
    And the user switches to "bob" typing the password by hand
    Then the last registration request carries the WebAuthn user handle of "bob"
    And the last registration request carries none of the exclusions or the challenge of "alice"
