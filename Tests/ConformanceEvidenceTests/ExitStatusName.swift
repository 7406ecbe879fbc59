import ConformanceKit

/// Swift Testing has an `ExitStatus` of its own (for exit tests); this is the run's.
typealias ExitStatus = ConformanceModel.ExitStatus
