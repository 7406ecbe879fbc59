# Criterion N3.2-AC04 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC04 @level:core @group:N3.2 @requires:signals @needs:refresh-point
Feature: N3.2-AC04 Never a partial or accidentally empty accepted list

  Statement:
    The code that assembles the complete accepted list never sends what it cannot prove complete
    and current: after partial data, a failed page, a time-out or a stale cache it either sends
    nothing for that trigger or reads the store again and sends the complete, current list. An
    empty list is sent only when the server confirms that the signed-in user has no accepted
    credential left, for example after deleting the last passkey.
  Verification:
    Inject each fault into the server's credential store once, reach the refresh point (or revoke a
    passkey) and, once the app has nothing left scheduled, compare every accepted list the platform
    took with the server's records; delete an account's last passkey; compare the lists sent for
    accounts with zero, one and several passkeys with the server's records.
  Items:
    V1: partial data: nothing partial sent (nothing at all, or the complete list read again)
    V2: pagination failure: nothing partial sent
    V3: time-out: nothing partial or accidentally empty sent
    V4: stale cache: nothing that disagrees with the server's current records sent (nothing at all, or the current list)
    V5: confirmed zero-credential account (last passkey deleted): an empty list is sent
    V6: zero, one and several credentials: the exact lists
  Harness choices:
    The refresh point comes 3 minutes after the signed-in start settles, past the Android window of
    120 seconds, so that an app's own signal budget has room for it (anchor: "Android permits a
    maximum of 10 calls in any 120-second window"; the gap only keeps that limit out of the way).
    Counts are differences with
    the same scenario without its When steps, over the same span of time: a list the app sends on
    its own schedule (a recurring timer) is sent without the trigger too and never counts as the
    trigger's. Each trigger proves it happened first (the refresh point reached signed in, the
    revocation taken effect); a proof that fails leaves the item not verified, pointing at the
    criterion that explains it (a revocation the app refuses: N3.2-AC01), never failed.
  Source: N3.2-AC04, "WebAuthn Signal API", Core
  References:
    WebAuthn Level 3, signalAllAcceptedCredentials: omitting a valid id hides that passkey

  Background:
    Given an account "alice" with the sign-in policy "password only"

  @needs:fault-injection
  Scenario Outline: A list the store cannot deliver whole is never sent incomplete (<fault>)
    Given "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    And the server's credential store suffers "<fault>"
    When the app reaches its refresh point
    Then the refresh point took the path: the app reached it signed in as "alice"
    And every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

    @verify:N3.2-AC04.V1
    Examples: Partial data
      | fault        |
      | partial data |

    @verify:N3.2-AC04.V2
    Examples: A page that fails
      | fault                |
      | a pagination failure |

    @verify:N3.2-AC04.V3
    Examples: A time-out
      | fault      |
      | a time-out |

  # The same faults through every read until the check: an app that retries meets the fault again,
  # so what it sends once its retries are spent is judged too.
  @needs:fault-injection @needs:refresh-point
  Scenario Outline: A list the store never delivers whole is never sent, however often the app retries (<fault>)
    Given "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    And the server's credential store suffers "<fault>" until the session ends
    When the app reaches its refresh point
    Then every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

    @verify:N3.2-AC04.V1
    Examples: Partial data
      | fault        |
      | partial data |

    @verify:N3.2-AC04.V2
    Examples: A page that fails
      | fault                |
      | a pagination failure |

    @verify:N3.2-AC04.V3
    Examples: A time-out
      | fault      |
      | a time-out |

  # The fault strikes after the data changed: the last list the app read is no longer the server's,
  # so an app that falls back to it sends a stale list.
  @verify:N3.2-AC04.V4 @needs:fault-injection @needs:refresh-point
  Scenario Outline: A list that fails after the data changed is never replaced by an older one (<fault>)
    Given "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app reaches its refresh point
    And the app has nothing left scheduled
    And the server holds 1 passkey for "alice" made with other credential managers
    And the server's credential store suffers "<fault>" until the session ends
    When the app reaches its refresh point
    Then every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

    Examples:
      | fault                |
      | partial data         |
      | a pagination failure |
      | a time-out           |

  @verify:N3.2-AC04.V4 @needs:fault-injection @needs:revocation @needs:refresh-point
  Scenario: A stale cache is never sent
    Given "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app reaches its refresh point
    And the app has nothing left scheduled
    And the server's credential store suffers "a stale cache"
    When the user revokes a passkey of "alice"
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  @verify:N3.2-AC04.V5 @needs:revocation
  Scenario: Deleting the last passkey sends a confirmed empty list
    Given "alice" has 1 passkey in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    When the user revokes every passkey of "alice"
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And an empty accepted-credentials signal has been sent for "alice"

  # A list left pending when the user switches accounts is still one account's list: never its ids
  # under the next account's user handle (the monitor accepted-list-is-server-list watches every
  # test case; this one drives its path).
  @verify:N3.2-AC04.V4 @needs:explicit-creation
  Scenario: A list pending at an account switch carries its own account's passkeys only
    Given an account "bob" with the sign-in policy "password only"
    And "alice" signs in with the password
    And the app has nothing left scheduled
    When the user creates a passkey from the app's settings
    And the user switches to "bob" typing the password by hand
    Then every accepted-credentials signal lists exactly the server's accepted passkeys of its account

  @verify:N3.2-AC04.V6
  Scenario Outline: An account with <count> passkeys gets its exact list
    Given "alice" has <count> passkeys in the credential manager
    And "alice" has a revoked passkey in the credential manager
    And "alice" signs in with the password
    And the app has nothing left scheduled
    And 3 minutes pass
    When the app reaches its refresh point
    Then the refresh point took the path: the app reached it signed in as "alice"
    And exactly 1 accepted-credentials signal has been sent for "alice"
    And the last accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

    Examples:
      | count |
      | 0     |
      | 1     |
      | 3     |
