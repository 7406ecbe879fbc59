# Criterion N3.2-AC09 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC09 @level:core @group:N3.2 @requires:signals @needs:refresh-point @needs:rename
Feature: N3.2-AC09 Exact user handles and credential ids in each platform's form

  Statement:
    Signals carry the server's current WebAuthn user handle and credential ids unchanged, in the
    form the platform asks for: raw bytes (Data) for Apple's report methods, unpadded base64url
    strings in Android's request JSON. A product account id never stands in for the user handle.
  Verification:
    Reconcile and rename accounts with zero, one and several passkeys; compare every captured Apple
    Data argument and every Android JSON value with the server's records.
  Items:
    V1: Apple: Data arguments equal the server's raw bytes
    V2: Android: JSON base64url values equal the server's values
    V3: zero, one and several credentials
    V4: never a product account id in place of the user handle
  Harness choices:
    "Several" in the source is any number above one; the scenarios use 3 (anchor: "for zero, one
    and several credentials"). Every signal the app sent
    once it has nothing left scheduled is compared, whatever the schedule that sent it, with the
    server's records; the scenarios change no passkey, so every list must match them. None is
    counted.
  Source: N3.2-AC09, "WebAuthn Signal API", Core
  References:
    Apple reportAllAcceptedPublicKeyCredentials(relyingPartyIdentifier:userHandle:acceptedCredentialIDs:)
    Android SignalAllAcceptedCredentialIdsRequest: userId and allAcceptedCredentialIds in base64url

  @verify:N3.2-AC09.V1 @verify:N3.2-AC09.V3 @platform:apple
  Scenario Outline: Apple report arguments are the raw values (<count> passkeys)
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has <count> passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    When the app reaches its refresh point
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    Then every signal carries the user handle and passkey ids of "alice" exactly

    Examples:
      | count |
      | 0     |
      | 1     |
      | 3     |

  @verify:N3.2-AC09.V2 @verify:N3.2-AC09.V3 @platform:android
  Scenario Outline: Android request JSON carries the base64url values (<count> passkeys)
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has <count> passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    When the app reaches its refresh point
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    Then every signal carries the user handle and passkey ids of "alice" exactly

    Examples:
      | count |
      | 0     |
      | 1     |
      | 3     |

  @verify:N3.2-AC09.V4
  Scenario: The user handle is never the product account id
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    When the app reaches its refresh point
    And the user changes the account's name to "alice.new@example.com" and its display name to "-"
    Then at least one signal has been sent
    And no signal carries a product account id as its user handle
