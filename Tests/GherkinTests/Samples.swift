/// Feature files written for these tests, independent of the corpus.
enum Samples {
    struct Sample {
        let uri: String
        let text: String
    }

    static let login = Sample(
        uri: "features/login.feature",
        text: """
            # A comment before the feature
            @auth @smoke
            Feature: Passkey sign-in
              The relying party lets users sign in
              with a passkey.

              Background:
                Given a registered passkey

              @happy
              Scenario: Sign in
                When the user signs in
                And the authenticator answers
                  \"\"\"json
                  {"type": "webauthn.get"}
                  \"\"\"
                Then the session is created
                But no password is asked

              Scenario Outline: Sign in as <user>
                Given the account <user>
                When the user signs in with:
                  | field | value   |
                  | name  | <user>  |
                  | pipe  | a \\| b |
                Then the result is <result>

                @ok
                Examples: accepted
                  | user  | result |
                  | alice | ok     |
                  | bob   | ok     |

                Examples: refused
                  | user    | result  |
                  | mallory | refused |

              Rule: Conditional mediation
                Background:
                  Given the autofill UI is shown

                Scenario: Autofill
                  * the user picks the passkey

            """)

    static let french = Sample(
        uri: "features/fr.feature",
        text: """
            # language: fr
            Fonctionnalité: Connexion
              Scénario: Réussie
                Soit un compte
                Quand l'utilisateur se connecte
                Alors la session est ouverte

            """)

    static let markdown = Sample(
        uri: "features/doc.feature.md",
        text: """
            # Feature: Markdown criteria

            Some prose that is ignored.

            ## Scenario: In Markdown
            * Given a bullet step
              | a | b |
              | - | - |
              | 1 | 2 |
            * Then it is a step

            """)

    static let broken = Sample(
        uri: "features/broken.feature",
        text: """
            Feature: Broken

              Scenario: one
                Given a table
                  | a | b |
                  | 1 |
                this line is not allowed
              @bad tag
              Scenario: two
                Given something

            garbage at the end

            """)

    static let all = [login, french, markdown, broken]
}
