import Foundation

extension JSONValue {
    /// The error of `parse`: the strict reader's, with the byte offset, line and column of the problem.
    public typealias ParseError = JSONSyntaxError

    /// Parses one JSON text with the project's strict reader (`JSONReader`: RFC 8259, no repeated
    /// member names, no lone surrogates, UTF-8 only, at most `maximumDepth` levels of nesting), directly
    /// into a value, without the throwing probes of `Decodable`.
    public static func parse(_ data: Data, maximumDepth: Int = JSONReader.defaultMaximumDepth) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                return .success(try JSONReader.value(of: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text given as bytes; see `parse(_:maximumDepth:)` for `Data`.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONReader.defaultMaximumDepth) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try JSONReader.value(of: buffer, maximumDepth: maximumDepth))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
