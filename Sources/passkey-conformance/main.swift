import Foundation
import PasskeyConformanceCLI

// First: from here on SIGINT, SIGTERM and SIGHUP are recorded, so a run stopped at once still reports.
EarlySignals.install()

exit(await CLI.main(Array(CommandLine.arguments.dropFirst())))
