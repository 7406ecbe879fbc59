// The protocol's messages and targets, and the seeded generator, are part of the model every stage shares.
@_exported import PasskeyConformanceProtocol
@_exported import SeededRandom
