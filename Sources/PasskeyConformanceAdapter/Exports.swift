// An adapter written in Swift imports this module alone: the protocol's messages come with it.
@_exported import PasskeyConformanceProtocol
