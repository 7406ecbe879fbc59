# Criterion N2.6-AC05 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create-api
Feature: N2.6-AC05 One prompt request, a silent no-create and no retry

  Statement:
    After a qualifying password sign-in the app issues exactly one conditional registration request,
    promptly, while the credential manager's autofill context still applies. When the credential
    manager answers that it creates nothing, the app shows no error, carries on with the session and
    does not retry; the next qualifying sign-in issues one new request. On success the system, not
    the app, tells the user; the app adds no confirmation of its own. A failed or declined request
    never turns into a modal creation sheet the app opens on its own; a manual creation nudge the
    user chooses stays allowed.
  Verification:
    Sign in with a matching autofilled password, a hand-typed password and a password saved for
    another account; once the app has nothing left scheduled, count the requests after the sign-in,
    their timing (from the sign-in to each request), everything the app shows (of any kind: error,
    confirmation, message or screen, judged by what it claims), every registration request (modal or
    conditional) and every sheet the platform shows, and the requests after a later qualifying
    sign-in; lose the server's answer to the upgrade's registration after the server stored the
    passkey and count the requests that follow. Counts start at the scenario's first When step.
  Items:
    V1: matching password autofill: exactly one request, promptly (before any further user action)
    V2: manual password entry: one request; the provider answers no-create; no user-facing error, the session continues, no retry
    V3: sign-in with a stored password of another account: as V2
    V4: a later qualifying sign-in issues exactly one new request
    V5: on success the app adds no confirmation of its own, in whatever form it shows it (derived)
    V6: failures are told apart: the expected no-op (Android CreateCredentialNoCreateOptionException; Apple's documented eligibility and cancellation outcomes) stays silent; unsupported, provider-configuration, CreatePublicKeyCredentialDomException and unexpected failures are recorded in telemetry under their own class, never as ineligibility (derived)
    V7: no automatic retry through any later event that is not a qualifying sign-in: refresh, relaunch, a passkey, recovery or non-password sign-in, time passing, or the answer to the upgrade's registration lost after the server stored it
    V8: after a conditional request that failed or was declined, the app opens no modal creation sheet on its own; a manual creation nudge the user chooses stays allowed (derived)
  Harness choices:
    "Promptly" is checked as: before any further user action, and within the credential manager's
    recent-autofill window of the sign-in. Anchor: the source has the app issue the request
    "promptly after the complete configured sign-in succeeds ... while the credential provider's
    recent autofill context can still apply", so the bound is the simulated provider's own window
    (a provider knob, 1 to 30 minutes, 5 minutes unless a scenario sets another with "the
    credential manager keeps its autofill context for N seconds"), never a shorter number of the
    harness's. After a qualifying sign-in the user of the simulation does not act again before the
    app has had that window (its timers due in it run, in due order, until it asks), and every
    step that reads registration requests gives it the same window first; an app that asks at once
    sees no time pass. A request that comes after the window or after a further user action is
    reported as late, none at all (even once the app has nothing left scheduled) as absent.
    What the app shows is judged by cause, then by meaning, whatever kind of event it uses. An
    event is a confirmation of the app's own when the same scenario replayed where the credential
    manager declines every conditional request does not show it after the outcome reached the app,
    and a user-facing error when the replay where it creates every passkey does not show it after
    the no-create reached the app, in both cases before the user's next action (what the app shows
    in answer to a later action, such as a passkey list, is not its reaction); the events are compared by kind and text, in order, so a home
    screen or status line shown whatever happened is never judged, in any words. Such an event
    fails in any language unless the harness's reader of English excuses it: after a success, a
    text that reports a failure; after a no-create, an offer to make a passkey that is not an
    error event (a nudge in another language is reported). The verdict quotes the text.
    A creation sheet counts as the app's own unless the user's last action before it chose
    passkey creation (a nudge or a setting); one sheet per such choice.
    "Once the app has nothing left scheduled" has no horizon of the harness's own: every timer the
    app scheduled fires, however far out (a retry 48 hours later is seen), and only a recurring
    schedule of the app's own is not waited out. Anchor: "another automatic attempt waits for a
    later qualifying sign-in" holds at any time, so no wait shorter than the app's own schedule
    would do. A runaway is stopped by the test case's budget of 30 days of virtual time or 10,000
    timers in one wait, and the transcript names the timers left.
    The later qualifying sign-in of V4 comes 1 minute after the sign-out. Anchor: "another
    automatic attempt waits for a later qualifying sign-in" names no gap, so any would do; the first
    sign-in's password is typed by hand, so no autofill of it reaches the second one's window.
    The server storing the upgrade's passkey is a control: it proves the success path of V1, V4
    and V5 was reached. A server that refuses the upgrade's UP=0 registration is N2.6-X01's fault:
    when the same scenario without its When steps refuses X01's own case too (an autofilled
    sign-in answered at once), the control leaves the item not verified, pointing at N2.6-X01, so
    that one cause is counted once. The same holds for the explicit creation of V8's control, with
    the creation answered UP=1 UV=1 BE=0 BS=0 as the probe.
  Source: N2.6-AC05, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    androidx.credentials CreateCredentialNoCreateOptionException
    Apple RequestStyle.conditional: declines without UI

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC05.V1 @requires:conditional-create
  Scenario: A matching autofill gets exactly one request, promptly
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 conditional registration request has been issued for "alice"
    And the registration request followed the sign-in promptly
    And the credential manager created a passkey for "alice"
    And the upgrade took the path: the server stored the passkey the credential manager created for "alice"

  @verify:N2.6-AC05.V2
  Scenario: A hand-typed password gets one request and a silent no-create
    When the user signs in as "alice" typing the password by hand
    And the app has nothing left scheduled
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

  @verify:N2.6-AC05.V6 @requires:conditional-create
  Scenario Outline: A credential manager that declines for its own reasons stays silent (<reason>)
    Given <provider state>
    When the user signs in as "alice" with the autofilled password
    And the app has nothing left scheduled
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

    Examples:
      | reason                   | provider state                                   |
      | automatic creation off   | the user switched automatic passkey creation off |
      | a passkey is already held | "alice" has 1 passkey in the credential manager  |

  @verify:N2.6-AC05.V3
  Scenario: A password saved for another account gets one request and a silent no-create
    Given the credential manager holds a saved password for "carol"
    When the user signs in as "alice" with the password saved for "carol"
    And the app has nothing left scheduled
    Then exactly 1 conditional registration request has been issued for "alice"
    And the credential manager declined the registration
    And the app showed no error
    And "alice" is signed in

  @verify:N2.6-AC05.V4 @requires:conditional-create
  Scenario: A later qualifying sign-in asks once more
    When the user signs in as "alice" typing the password by hand
    And the user signs out
    And 1 minute passes
    And the user signs in as "alice" with the autofilled password
    Then exactly 2 conditional registration requests have been issued for "alice"
    And the upgrade took the path: the server stored the passkey the credential manager created for "alice"

  @verify:N2.6-AC05.V5 @requires:conditional-create
  Scenario: A successful upgrade adds no confirmation screen
    When the user signs in as "alice" with the autofilled password
    Then the credential manager created a passkey for "alice"
    And the upgrade took the path: the server stored the passkey the credential manager created for "alice"
    And the app showed no confirmation of its own

  @verify:N2.6-AC05.V6 @requires:no-conditional-create
  Scenario: A provider without conditional support gets its one request and no error
    When the user signs in as "alice" with the autofilled password
    And the app has nothing left scheduled
    Then exactly 1 conditional registration request has been issued for "alice"
    And the app showed no error
    And "alice" is signed in

  @verify:N2.6-AC05.V6 @requires:no-conditional-create
  Scenario: A provider without conditional support: the app treats its answer as its class requires
    When the user signs in as "alice" with the autofilled password
    Then the app treated the failure as its class requires
    And the app showed no error

  @verify:N2.6-AC05.V6 @requires:conditional-create
  Scenario Outline: The expected no-op stays silent (<failure>)
    Given the credential manager fails the next conditional registration with "<failure>"
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 conditional registration request has been issued for "alice"
    And the app showed no error
    And "alice" is signed in

    @platform:android
    Examples: Android
      | failure                                 |
      | CreateCredentialNoCreateOptionException |

    @platform:apple
    Examples: Apple
      | failure                                     |
      | ASAuthorizationError.canceled               |
      | ASAuthorizationError.matchedExcludedCredential |
      | ASAuthorizationError.deviceNotConfiguredForPasskeyCreation |

  @verify:N2.6-AC05.V6 @requires:conditional-create
  Scenario Outline: Every other failure is recorded under its own class (<failure>)
    Given the credential manager fails the next conditional registration with "<failure>"
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 conditional registration request has been issued for "alice"
    And the app recorded the failure under its own class
    And "alice" is signed in

    @platform:android
    Examples: Android
      | failure                                          |
      | CreateCredentialUnsupportedException             |
      | CreateCredentialProviderConfigurationException   |
      | CreatePublicKeyCredentialDomException NotAllowedError   |
      | CreatePublicKeyCredentialDomException InvalidStateError |
      | CreatePublicKeyCredentialDomException AbortError        |
      | CreatePublicKeyCredentialDomException ConstraintError   |
      | CreateCredentialUnknownException                 |
      | CreateCredentialCustomException                  |

    @platform:apple
    Examples: Apple
      | failure                              |
      | ASAuthorizationError.failed          |
      | ASAuthorizationError.invalidResponse |
      | ASAuthorizationError.notHandled      |
      | ASAuthorizationError.unknown         |

  # The server stored the upgrade's passkey, but its answer was lost on the way back: the app may
  # upload the same response again, but a lost answer is no qualifying sign-in, and no reason to
  # ask the credential manager for another automatic registration.
  @verify:N2.6-AC05.V7 @requires:conditional-create @needs:fault-injection
  Scenario: An upgrade whose answer was lost after the server stored the passkey is not asked for again
    Given the server's answer to the app's next request is lost after the server committed it
    When the user signs in as "alice" with the autofilled password
    And the app has nothing left scheduled
    Then the upgrade took the path: the server stored the passkey the credential manager created for "alice"
    And exactly 1 conditional registration request has been issued for "alice"

  Scenario Outline: No automatic retry after a no-create through <event>
    Given the user signs in as "alice" typing the password by hand
    And the app has nothing left scheduled
    When <event step>
    Then no passkey registration request has been issued
    And the app showed no error

    @verify:N2.6-AC05.V7 @needs:refresh-point
    Examples: The app's refresh point
      | event           | event step                        |
      | a refresh point | the app reaches its refresh point |

    @verify:N2.6-AC05.V7 @needs:relaunch
    Examples: A relaunch
      | event      | event step            |
      | a relaunch | the app is relaunched |

    # A user action in the app after a no-create is not a qualifying sign-in either: opening the
    # passkey screen or the profile must not restart the attempt.
    @verify:N2.6-AC05.V7
    Examples: Opening passkey management
      | event                      | event step                         |
      | opening passkey management | the user opens passkey management |

    @verify:N2.6-AC05.V7
    Examples: A profile change
      | event            | event step                                                                                    |
      | a profile change | the user changes the account's name to "alice.r@example.com" and its display name to "Alice R." |

  Scenario Outline: No automatic retry after a no-create through a later <event>
    Given "alice" has 1 passkey in the credential manager
    And the user signs in as "alice" typing the password by hand
    And the user signs out
    And the app has nothing left scheduled
    When <event step>
    Then no passkey registration request has been issued

    @verify:N2.6-AC05.V7 @needs:passkey-sign-in
    Examples: A passkey sign-in
      | event             | event step                                 |
      | passkey sign-in   | the user signs in with a passkey of "alice" |

    @verify:N2.6-AC05.V7 @needs:recovery-sign-in
    Examples: A recovery sign-in
      | event            | event step                                         |
      | recovery sign-in | the user signs in as "alice" through account recovery |

    @verify:N2.6-AC05.V7 @needs:alternative-sign-in
    Examples: A sign-in without a password
      | event              | event step                                      |
      | magic-link sign-in | the user signs in as "alice" through "a magic link" |

  @verify:N2.6-AC05.V7
  Scenario: No automatic retry after a no-create as time passes
    When the user signs in as "alice" typing the password by hand
    And the app has nothing left scheduled
    Then exactly 1 conditional registration request has been issued for "alice"
    And the app showed no error

  @verify:N2.6-AC05.V8 @requires:conditional-create
  Scenario Outline: A declined or failed conditional request opens no creation sheet (<failure>)
    Given the credential manager fails the next conditional registration with "<failure>"
    When the user signs in as "alice" with the autofilled password
    Then the app opened no passkey creation sheet on its own
    And exactly 1 conditional registration request has been issued for "alice"

    @platform:android
    Examples: Android
      | failure                                               |
      | CreateCredentialNoCreateOptionException               |
      | CreatePublicKeyCredentialDomException NotAllowedError |

    @platform:apple
    Examples: Apple
      | failure                                                    |
      | ASAuthorizationError.canceled                              |
      | ASAuthorizationError.deviceNotConfiguredForPasskeyCreation |

  @verify:N2.6-AC05.V8
  Scenario: A hand-typed password: the silent no-create opens no creation sheet
    When the user signs in as "alice" typing the password by hand
    Then the app opened no passkey creation sheet on its own
    And the app showed no error

  @verify:N2.6-AC05.V8 @needs:explicit-creation
  Scenario: A creation the user chooses after a no-create is allowed (control)
    Given the user signs in as "alice" typing the password by hand
    And the app has nothing left scheduled
    When the user creates a passkey from the app's settings
    Then the app opened no passkey creation sheet on its own
    And the creation took the path: the server stored the passkey the platform made for "alice"
