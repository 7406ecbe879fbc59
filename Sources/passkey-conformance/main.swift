import Foundation
import PasskeyConformanceCLI

exit(await CLI.main(Array(CommandLine.arguments.dropFirst())))
