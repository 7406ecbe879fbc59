# Broken on purpose: a step two definitions match (with the tests' overlapping library)
@criterion:N9.9-AC01 @level:core @group:N9.9
Feature: N9.9-AC01 A broken criterion

  Statement:
    The app signs the user in.
  Verification:
    Sign in and look at the session.
  Items:
    V1: a password-only account signs in
  Source: a test fixture

  @verify:N9.9-AC01.V1
  Scenario: A user waves
    Then the user waves 3 times
