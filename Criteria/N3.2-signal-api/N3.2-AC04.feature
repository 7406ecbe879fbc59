# Criterion N3.2-AC04 of "WebAuthn Signal API" (criteria document seeds/003_2533626f682b527b.txt,
# group N3.2). Restated in the project's own words.
@criterion:N3.2-AC04 @level:core @group:N3.2 @requires:signals @needs:refresh-point
Feature: N3.2-AC04 Never a partial or accidentally empty accepted list

  Statement:
    The code that assembles the complete accepted list never sends what it cannot prove complete
    and current: after partial data, a failed page, a time-out (also a read whose answer was lost
    on its way back) or a stale cache it either sends nothing for that trigger or reads the store
    again and sends the complete, current list; what the app believes the server holds (a passkey
    whose registration answer it never got left out) never stands in for the server's list. An
    empty list is sent only when the server confirms that the signed-in user has no accepted
    credential left, for example after deleting the last passkey.
  Verification:
    Inject each fault into the server's credential store once, reach the refresh point (or revoke a
    passkey) and, once the app has nothing left scheduled, compare every accepted list the platform
    took with the server's records; lose the server's answer to a list read, and to a registration
    the server stored, and compare the lists sent afterwards the same way; delete an account's last
    passkey; compare the lists sent for
    accounts with zero, one and several passkeys with the server's records.
  Items:
    V1: partial data: nothing partial sent (nothing at all, or the complete list read again)
    V2: pagination failure: nothing partial sent
    V3: time-out (or an answer to the list read lost on its way back): nothing partial or accidentally empty sent
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
    criterion that explains it (a revocation the app refuses: N3.2-AC01), never failed. A lost
    answer (the server committed, the app got a network error) strikes the requests it applies to:
    a submitted registration, a read of the accepted list; a revocation or a refresh reaches the
    server as usual.
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

  # The server read the list, but every answer is lost on its way back: to the app that is a
  # time-out, and nothing it did not receive (an empty list, the list it read before) may stand in.
  @verify:N3.2-AC04.V3 @needs:fault-injection @needs:revocation @needs:refresh-point
  Scenario: A list whose answer was lost on its way back is never filled in
    Given "alice" has 3 passkeys in the credential manager
    And "alice" signs in with the password
    And the app reaches its refresh point
    And the app has nothing left scheduled
    And every answer of the server is lost after the server committed the request
    When the user revokes a passkey of "alice"
    And 3 minutes pass
    And the app reaches its refresh point
    Then the revocation took the path: the server no longer accepts the passkeys the user revoked for "alice"
    And every accepted-credentials signal for "alice" lists exactly the server's accepted passkeys

  # The server stored the passkey, but its answer was lost: the list the app sends afterwards is
  # the server's, with the passkey the app could not confirm.
  @verify:N3.2-AC04.V4 @needs:fault-injection @needs:explicit-creation @needs:refresh-point
  Scenario: A registration whose answer was lost leaves no list without the passkey the server stored
    Given the server holds 1 passkey for "alice" made with other credential managers
    And "alice" signs in with the password
    And the app has nothing left scheduled
    And the server's answer to the app's next request is lost after the server committed it
    When the user creates a passkey from the app's settings
    And 3 minutes pass
    And the app reaches its refresh point
    Then the creation took the path: the server stored the passkey the platform made for "alice"
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
