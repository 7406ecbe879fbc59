# Criterion N2.6-AC02 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC02 @level:core @group:N2.6
Feature: N2.6-AC02 The automatic upgrade uses the platform's conditional mode

  Statement:
    The registration request the app issues after a qualifying sign-in is marked conditional in the
    way the platform defines: the conditional request style on Apple platforms, isConditional on
    Android's CreatePublicKeyCredentialRequest. A request without that mark is a modal registration,
    whatever the credential manager happens to do with it. Where the platform has no conditional
    mode, the app does not fall back to a modal request of its own accord.
  Verification:
    Complete a qualifying sign-in on every target and inspect the request the platform receives: its
    request style (Apple) or isConditional flag (Android). On targets without the API, check that no
    registration request is issued without a user action.
  Items:
    V1: Apple: registration request with the conditional request style
    V2: Android: CreatePublicKeyCredentialRequest with isConditional = true
    V3: a non-conditional request fails the criterion even when the provider creates a passkey without UI
    V4: Web, beyond the seeds' native scope: where the browser has no conditional create (getClientCapabilities() reports conditionalCreate false), the page issues no registration request of its own accord; a create with mediation "conditional" there is a modal one
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
  Source: N2.6-AC02, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    Apple ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle.conditional (iOS 18)
    androidx.credentials CreatePublicKeyCredentialRequest(isConditional) (1.6.0)
    WebAuthn Level 3: CredentialMediationRequirement "conditional" for create; PublicKeyCredential.getClientCapabilities()

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC02.V1 @platform:apple @requires:conditional-create-api
  Scenario: Apple: the request uses the conditional request style
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 registration request has been issued
    And every registration request uses the conditional request style

  @verify:N2.6-AC02.V2 @platform:android @requires:conditional-create-api
  Scenario: Android: the request sets isConditional
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 registration request has been issued
    And every registration request sets isConditional to true

  @verify:N2.6-AC02.V3 @requires:conditional-create-api
  Scenario: A request the provider fulfils without UI is still judged by its mode
    Given the credential manager creates passkeys without showing any UI
    When the user signs in as "alice" with the autofilled password
    Then every registration request is conditional

  Scenario Outline: Without a conditional API the app does not fall back to a modal request (<platform>)
    When the user signs in as "alice" with the autofilled password
    Then "alice" is signed in
    And no passkey registration request has been issued
    And the app made no call the platform does not support

    @verify:N2.6-AC02.V1 @platform:apple @requires:no-conditional-create-api
    Examples: Apple before 18
      | platform |
      | Apple    |

    @verify:N2.6-AC02.V2 @platform:android @requires:no-conditional-create-api
    Examples: androidx.credentials before 1.6.0
      | platform |
      | Android  |

    @verify:N2.6-AC02.V4 @platform:web @requires:no-conditional-create-api
    Examples: a browser without conditional create
      | platform |
      | Web      |
