# Extension criterion N2.6-X01, derived by the harness from the warning in "What your server must
# tolerate" of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt). Not one of the source's numbered criteria.
@criterion:N2.6-X01 @level:core @group:N2.6 @derived @requires:conditional-create
Feature: N2.6-X01 The server accepts the UP=0, UV=0 registration of an automatic upgrade

  Statement:
    No user interacts during a conditional registration, so its authenticator data asserts neither
    user presence nor user verification. The server accepts such a registration for options it
    issued as conditional, including when the backup-eligible and backed-up flags of a synced
    passkey are set. A verifier that insists on UP or UV breaks every automatic upgrade.
  Verification:
    Let the credential manager answer a conditional request with each flag combination and check that
    the server stores the passkey.
  Items:
    X01: the server accepts a conditional registration with UP=0 and UV=0, also with BE and BS set
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
  Source: derived from the N2.6 source's warning that conditional registrations carry UP and UV as false
  References:
    WebAuthn Level 3, registering a new credential: UP is checked only when mediation is not conditional

  @verify:N2.6-X01.X01
  Scenario Outline: A conditional registration with flags <flags> is accepted
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"
    And the authenticator reports the flags "<flags>"
    When the user signs in as "alice" with the autofilled password
    Then the credential manager created a passkey for "alice"
    And the server holds 1 passkey for "alice"

    Examples:
      | flags                  |
      | UP=0 UV=0 BE=0 BS=0    |
      | UP=0 UV=0 BE=1 BS=0    |
      | UP=0 UV=0 BE=1 BS=1    |
