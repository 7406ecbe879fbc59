// Module Gherkin.
