import Foundation
import PasskeyConformanceCLI

// First: from here on SIGINT, SIGTERM and SIGHUP are recorded, so a run stopped at once still reports.
EarlySignals.install()
// Started as an adapter's keeper (an internal role): never returns.
AdapterKeeping.keepIfAsked(Array(CommandLine.arguments.dropFirst()))
// No process an adapter starts outlives the run (a child subreaper, every adapter under a keeper).
AdapterKeeping.install()

exit(await CLI.main(Array(CommandLine.arguments.dropFirst())))
