// The leaf helpers (package paths, waiting on events, the heavy-test trait, the seeded generator)
// come with the kit's fakes and fixtures.
@_exported import TestSupportCore
