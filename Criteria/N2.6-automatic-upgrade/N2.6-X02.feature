# Extension criterion N2.6-X02: a recommendation of another standard (the WebAuthn Level 3
# registration steps), next to "What your server must tolerate" of "Passkey Creation: Automatic
# Upgrade (conditional create)" (criteria document seeds/000_48fd21300f093a6c.txt). Not one of the
# source's numbered criteria, and outside the default gate (run --level recommendation).
@criterion:N2.6-X02 @level:core @group:N2.6 @recommendation @needs:explicit-creation
Feature: N2.6-X02 User presence is waived only for options issued as conditional

  Statement:
    The server decides whether a registration may lack user presence from the options it issued,
    never from anything the client sends. A response without UP to explicit, modal creation options
    is rejected; otherwise any client could switch the presence check off.
  Verification:
    Start an explicit passkey creation from the app's settings, let the authenticator answer with UP=0,
    and check that the server stores nothing; with UP=1 the same creation succeeds.
  Items:
    X02: a UP=0 response to explicit (modal) creation options is rejected
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
  Source: derived from the N2.6 source's server requirements and WebAuthn Level 3 §7.1
  References:
    WebAuthn Level 3, registering a new credential: verify UP unless mediation is conditional

  Background:
    Given an account "alice" with the sign-in policy "password only"

  @verify:N2.6-X02.X02
  Scenario: A modal registration without user presence is rejected
    Given the authenticator reports the flags "UP=0 UV=0 BE=1 BS=1"
    When the user signs in as "alice" typing the password by hand
    And the user creates a passkey from the app's settings
    Then the server holds 0 passkeys for "alice"

  # The control guards: where the server stores no modal registration at all (an origin it
  # refuses, say), the refusal above tells nothing about user presence, and the item is not
  # verified rather than passed or failed.
  @verify:N2.6-X02.X02
  Scenario: A modal registration with user presence is accepted (control)
    When the user signs in as "alice" typing the password by hand
    And the user creates a passkey from the app's settings
    Then the server holds the passkey created from the app's settings for "alice" (control)
