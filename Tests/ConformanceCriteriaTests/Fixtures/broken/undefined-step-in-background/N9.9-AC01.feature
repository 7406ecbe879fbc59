# Broken on purpose: a Background step no definition matches, inherited by two scenarios
@criterion:N9.9-AC01 @level:core @group:N9.9
Feature: N9.9-AC01 A broken criterion

  Statement:
    The app signs the user in.
  Verification:
    Sign in and look at the session.
  Items:
    V1: a password-only account signs in
  Source: a test fixture

  Background:
    Given an account "alice" with the sign-in policy "password only"
    And the moon is full

  @verify:N9.9-AC01.V1
  Scenario: A password-only account signs in
    When the user signs in as "alice" with the autofilled password
    Then "alice" is signed in

  @verify:N9.9-AC01.V1
  Scenario: A password-only account signs in by hand
    When the user signs in as "alice" typing the password by hand
    Then "alice" is signed in
