// The seeded generator the tests of every module draw their random inputs from.
@_exported import SeededRandom
