# Criterion N2.6-AC05 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create-api
Feature: N2.6-AC05 One prompt request, a silent no-create and no retry

  Statement:
    After a qualifying password sign-in the app issues exactly one conditional registration request,
    at once, while the credential manager's autofill context still applies. When the credential
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
    sign-in. Counts start at the scenario's first When step.
  Items:
    V1: matching password autofill: exactly one request, promptly (before any further user action)
    V2: manual password entry: one request; the provider answers no-create; no user-facing error, the session continues, no retry
    V3: sign-in with a stored password of another account: as V2
    V4: a later qualifying sign-in issues exactly one new request
    V5: on success the app adds no confirmation of its own, in whatever form it shows it (derived)
    V6: failures are told apart: the expected no-op (Android CreateCredentialNoCreateOptionException; Apple's documented eligibility and cancellation outcomes) stays silent; unsupported, provider-configuration, CreatePublicKeyCredentialDomException and unexpected failures are recorded in telemetry under their own class, never as ineligibility (derived)
    V7: no automatic retry through any later event that is not a qualifying sign-in: refresh, relaunch, a passkey, recovery or non-password sign-in, or time passing
    V8: after a conditional request that failed or was declined, the app opens no modal creation sheet on its own; a manual creation nudge the user chooses stays allowed (derived)
  Harness choices:
    "Promptly" is checked as: before any further user action, and within 10 seconds of the
    sign-in. No platform documents a window; a user acts again within seconds of a sign-in, so a
    request later than that would follow a further user action, which the source rules out, while
    10 seconds still let an app close its sign-in screen first. After a qualifying sign-in the
    user of the simulation waits those 10 seconds (the app's timers due in them run) before acting
    again, so an app that asks a moment later is never overtaken.
    What the app shows is judged by cause, then by meaning, whatever kind of event it uses. An
    event is a confirmation of the app's own when the same scenario replayed where the credential
    manager declines every conditional request does not show it after the outcome reached the app,
    and a user-facing error when the replay where it creates every passkey does not show it after
    the no-create reached the app; the events are compared by kind and text, in order, so a home
    screen or status line shown whatever happened is never judged, in any words. Such an event
    fails in any language unless the harness's reader of English excuses it: after a success, a
    text that reports a failure; after a no-create, an offer to make a passkey that is not an
    error event (a nudge in another language is reported). The verdict quotes the text.
    A creation sheet counts as the app's own unless the user's last action before it chose
    passkey creation (a nudge or a setting); one sheet per such choice.
    The later qualifying sign-in of V4 comes 1 minute after the sign-out: any gap would do, and
    one minute keeps the first sign-in's autofill out of the second one's window check.
  Source: N2.6-AC05, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    androidx.credentials CreateCredentialNoCreateOptionException
    Apple RequestStyle.conditional: declines without UI

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC05.V1 @requires:conditional-create
  Scenario: A matching autofill gets exactly one request at once
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 conditional registration request has been issued for "alice"
    And the registration request followed the sign-in promptly
    And the credential manager created a passkey for "alice"
    And the server holds 1 passkey for "alice"

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
    And the server holds 1 passkey for "alice"

  @verify:N2.6-AC05.V5 @requires:conditional-create
  Scenario: A successful upgrade adds no confirmation screen
    When the user signs in as "alice" with the autofilled password
    Then the credential manager created a passkey for "alice"
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
    And the server holds 1 passkey for "alice"
