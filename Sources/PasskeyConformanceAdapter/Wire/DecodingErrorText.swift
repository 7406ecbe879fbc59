/// A short account of a decoding error: where and what.
package struct DecodingErrorText: CustomStringConvertible {
    /// The account.
    package let description: String

    /// The account of `error`: for a `DecodingError`, what is wrong and at which coding path.
    package init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            description = "\(error)"
            return
        }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at \(path)"
        }
        switch error {
        case .keyNotFound(let key, let context): description = "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            description = "\(context.debugDescription)\(path(context))"
        @unknown default: description = "\(error)"
        }
    }
}
