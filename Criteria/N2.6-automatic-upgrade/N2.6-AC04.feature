# Criterion N2.6-AC04 of "Passkey Creation: Automatic Upgrade (conditional create)" (criteria document
# seeds/000_48fd21300f093a6c.txt, group N2.6). Restated in the project's own words.
@criterion:N2.6-AC04 @level:core @group:N2.6 @requires:conditional-create-api @requires:exclusion-list
Feature: N2.6-AC04 Every passkey the server knows is excluded

  Statement:
    The automatic upgrade request lists every credential id the server holds for the account in the
    platform's exclusion input: excludeCredentials in Android's requestJson, the excluded
    credentials of Apple's registration request (17.4 and later). A credential manager can only
    avoid a duplicate it is told about; the server keeps its own uniqueness checks besides: a
    registration whose credential id the server already holds, for this account or another, is
    never stored a second time and never takes the id from the passkey that has it.
  Verification:
    Give the account zero, one and several server-side passkeys made with other credential managers,
    complete a qualifying sign-in and compare the request's exclusion input with the server's list.
    Have the credential manager answer an automatic upgrade with the id of another account's
    passkey, and compare every account's passkeys with the server's records before it.
  Items:
    V1: Android: every known id in requestJson.excludeCredentials
    V2: Apple (17.4+): every known id in the excluded-credentials list
    V3: accounts with zero, one and several known credentials
    V4: (derived: "retain server-side credential uniqueness") a registration reusing a credential id the server holds is not stored: no id held twice, the passkey that has it unchanged
  Harness choices:
    The app's moment after a qualifying sign-in is the credential manager's recent-autofill
    window, not a number of the harness's: the user of the simulation does not act again before
    the app has had that window (5 minutes unless a scenario sets another; its timers due in it
    run until it asks), and every step that reads registration requests gives it the same window
    first. Anchor: the source has the request issued "promptly after the complete configured
    sign-in succeeds ... while the credential provider's recent autofill context can still apply"
    (see N2.6-AC05). A request that never comes is reported as absent, one after a further user
    action or past the window as late.
    V4 is derived from the source's note under "Duplicate prevention differs by platform"
    ("retain server-side credential uniqueness"): exclusion only helps the provider avoid
    duplicates it recognises, so the server must refuse an id it holds. The reused id is another
    account's, so that the exclusion list (the registering account's) does not stop the provider;
    a server that refuses the registration, or an app that never uploads it, both pass.
  Source: N2.6-AC04, "Passkey Creation: Automatic Upgrade (conditional create)", Core
  References:
    WebAuthn Level 3, excludeCredentials
    Apple excludedCredentials (iOS 17.4)
    WebAuthn Level 3, §7.1 (registering a new credential): a credential id already registered for any user fails the ceremony

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the credential manager holds a saved password for "alice"

  @verify:N2.6-AC04.V1 @verify:N2.6-AC04.V3 @platform:android
  Scenario Outline: Android excludes all <count> known passkeys
    Given the server holds <count> passkeys for "alice" made with other credential managers
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 registration request has been issued
    And the registration request excludes exactly the passkeys the server holds for "alice"

    Examples:
      | count |
      | 0     |
      | 1     |
      | 3     |

  @verify:N2.6-AC04.V2 @verify:N2.6-AC04.V3 @platform:apple
  Scenario Outline: Apple excludes all <count> known passkeys
    Given the server holds <count> passkeys for "alice" made with other credential managers
    When the user signs in as "alice" with the autofilled password
    Then exactly 1 registration request has been issued
    And the registration request excludes exactly the passkeys the server holds for "alice"

    Examples:
      | count |
      | 0     |
      | 1     |
      | 3     |

  @verify:N2.6-AC04.V4 @requires:conditional-create
  Scenario: A registration that reuses another account's credential id is not stored
    Given an account "bob" with the sign-in policy "password only"
    And the server holds 1 passkey for "bob" made with other credential managers
    And the credential manager gives the next passkey it creates the id of a passkey the server holds for "bob"
    When the user signs in as "alice" with the autofilled password
    Then the registration took the path: the credential manager answered with the id the server holds for "bob"
    And the server holds every credential id once, and the passkeys of "bob" as they were
