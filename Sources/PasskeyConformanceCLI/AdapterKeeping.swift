import ConformanceJSONRPC
import Foundation

/// The executable's part in keeping adapters' processes from outliving a run (see `ProcessKeeper`).
package enum AdapterKeeping {
    /// When the executable was started as an adapter's keeper (`__keep-adapter COMMAND…`), runs the
    /// keeper and never returns; otherwise returns at once.
    package static func keepIfAsked(_ arguments: [String]) {
        guard arguments.first == ProcessKeeper.argument else { return }
        ProcessKeeper.keep(Array(arguments.dropFirst()))
    }

    /// Makes this process a child subreaper and starts every adapter under a keeper that is this
    /// same executable (`/proc/self/exe`, so a binary replaced on disk during the run still works).
    /// Linux only; elsewhere adapters start directly and only their process group is covered.
    package static func install() {
        #if os(Linux)
            ProcessKeeper.harnessSetUp(executable: "/proc/self/exe")
        #endif
    }
}
