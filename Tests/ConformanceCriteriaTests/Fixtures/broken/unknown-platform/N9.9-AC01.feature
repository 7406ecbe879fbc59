# Broken on purpose: an unknown @platform
@criterion:N9.9-AC01 @level:core @group:N9.9
Feature: N9.9-AC01 A broken criterion

  Statement:
    The app signs the user in.
  Verification:
    Sign in and look at the session.
  Items:
    V1: a password-only account signs in
  Source: a test fixture

  @verify:N9.9-AC01.V1 @platform:windows
  Scenario: A password-only account signs in
    Given an account "alice" with the sign-in policy "password only"
    When the user signs in as "alice" with the autofilled password
    Then "alice" is signed in
