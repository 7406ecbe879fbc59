import Foundation
import Gherkin

let args = CommandLine.arguments
if args.count >= 3 {
    let text = String(decoding: FileManager.default.contents(atPath: args[2]) ?? Data(), as: UTF8.self)
    let uri = args.count > 3 ? args[3] : args[2]
    switch args[1] {
    case "--tokens": print(GherkinNDJSON.tokens(source: text, uri: uri), terminator: "")
    case "--ast": print(GherkinNDJSON.ast(source: text, uri: uri), terminator: "")
    case "--pickles": print(GherkinNDJSON.pickles(source: text, uri: uri), terminator: "")
    default: print(GherkinNDJSON.messages(source: text, uri: uri), terminator: "")
    }
}
