# Criterion N3.2-AC10 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC10 @level:quality @group:N3.2 @requires:signals @needs:rename
Feature: N3.2-AC10 A metadata signal after a confirmed rename, and nothing more

  Statement:
    Once the server confirms a change of the account's name or display name, the app sends a
    user-details signal with the current values of the fields the platform supports: name and
    display name on Android, the new name only on Apple. The signal creates, replaces and revokes no
    credential, and a rename the server did not confirm sends nothing.
  Verification:
    Change the name and the display name separately and together; once the app has nothing left
    scheduled, inspect the Apple and Android requests and compare the credential inventory before
    and after; try a rename the server refuses.
  Items:
    V1: name changed; display name changed; each alone: the current fields the platform supports (Android: name and displayName; Apple: the name only; for a display-name change alone Apple has nothing new to send, so sending nothing and re-reporting the current name both conform)
    V2: the credential inventory is unchanged
    V3: a rename that was not confirmed: no metadata signal
    V4: Web, beyond the seeds' native scope: name changed; display name changed; each alone: signalCurrentUserDetails with the current name and displayName (the method requires both)
  Harness choices:
    "No metadata signal" counts the user-details signals the run with the unconfirmed rename has
    beyond the same run without it, over the same span of time, so that details an app re-reports
    on its own schedule (with its accepted lists, at a refresh point) cancel out. The last
    user-details signal and the inventory are read once the app has nothing left scheduled.
    "The current fields" are the server's after the rename: the name and display name it holds for
    the account, whatever it made of what the user typed (a display name the product derives, such
    as "Full Name (username)", is current); the scenario also checks the server took the new name.
  Source: N3.2-AC10, "WebAuthn Signal API", Quality
  References:
    WebAuthn Level 3, signalCurrentUserDetails
    Apple reportPublicKeyCredentialUpdate carries newName only
    WebAuthn Level 3, CurrentUserDetailsOptions: rpId, userId, name and displayName, all required

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And "alice" has 2 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled

  @verify:N3.2-AC10.V1 @platform:android
  Scenario Outline: Android sends the current name and display name (<change>)
    When the user changes the account's name to "<name>" and its display name to "<display name>"
    Then the account name of "alice" is "<expected name>"
    And the last user-details signal carries the current name and display name of "alice"

    Examples:
      | change    | name             | display name | expected name     |
      | name      | ally@example.com | -            | ally@example.com  |
      | display   | -                | Ally         | alice@example.com |
      | both      | ally@example.com | Ally         | ally@example.com  |

  @verify:N3.2-AC10.V4 @platform:web
  Scenario Outline: A web page sends the current name and display name (<change>)
    When the user changes the account's name to "<name>" and its display name to "<display name>"
    Then the account name of "alice" is "<expected name>"
    And the last user-details signal carries the current name and display name of "alice"

    Examples:
      | change    | name             | display name | expected name     |
      | name      | ally@example.com | -            | ally@example.com  |
      | display   | -                | Ally         | alice@example.com |
      | both      | ally@example.com | Ally         | ally@example.com  |

  @verify:N3.2-AC10.V1 @platform:apple
  Scenario Outline: Apple sends the new name (<change>)
    When the user changes the account's name to "<name>" and its display name to "<display name>"
    Then the last user-details signal carries the new name "<expected name>"

    Examples:
      | change | name             | display name | expected name    |
      | name   | ally@example.com | -            | ally@example.com |
      | both   | ally@example.com | Ally         | ally@example.com |

  @verify:N3.2-AC10.V1 @platform:apple
  Scenario: Apple has nothing new to send for a display-name change alone
    When the user changes the account's name to "-" and its display name to "Ally"
    Then every user-details signal for "alice" carries its current name

  @verify:N3.2-AC10.V2
  Scenario: A rename leaves the credential inventory as it was
    Given the credential inventory of "alice" is noted
    When the user changes the account's name to "ally@example.com" and its display name to "Ally"
    Then the credential inventory of "alice" is as noted

  @verify:N3.2-AC10.V3
  Scenario: A rename the server did not confirm sends no metadata signal
    When the user's change of the account's name to "ally@example.com" is not confirmed
    Then no user-details signal has been sent
