/// Splits a byte stream into newline-terminated messages, with a bound on the length of one line.
///
/// Each complete line is handed out without its `\n` (and without a `\r` before it). A line that
/// grows past `maximumLineBytes` before its newline arrives is an error at once, so that a flooding
/// peer cannot make the reader buffer without end.
package struct LineFramer {
    /// Why the stream cannot be framed.
    package enum Failure: Error {
        /// A line exceeded the limit; the first bytes of it.
        case lineTooLong(prefix: [UInt8], length: Int)
        /// The stream ended inside a line; the bytes of that unfinished line.
        case truncated(partial: [UInt8])
    }

    package let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the unfinished line starts in `buffer`.
    private var lineStart = 0
    /// Up to where `buffer` has been searched for a newline.
    private var scanned = 0

    package init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The bytes of the line received so far and not yet finished.
    package var partialLine: ArraySlice<UInt8> { buffer[lineStart...] }

    /// Appends bytes just read and calls `onLine` for every line they complete.
    package mutating func append(_ bytes: UnsafeRawBufferPointer, onLine: (ArraySlice<UInt8>) throws -> Void) throws {
        buffer.append(contentsOf: bytes)
        while let newline = buffer[scanned...].firstIndex(of: 0x0A) {
            var end = newline
            if end > lineStart && buffer[end - 1] == 0x0D { end -= 1 }
            let line = buffer[lineStart..<end]
            lineStart = newline + 1
            scanned = lineStart
            if line.count > maximumLineBytes {
                throw Failure.lineTooLong(prefix: Array(line.prefix(256)), length: line.count)
            }
            try onLine(line)
        }
        scanned = buffer.count
        if buffer.count - lineStart > maximumLineBytes {
            throw Failure.lineTooLong(prefix: Array(buffer[lineStart...].prefix(256)), length: buffer.count - lineStart)
        }
        // Drop consumed lines once they make up most of the buffer.
        if lineStart > 0 && lineStart >= buffer.count / 2 {
            buffer.removeSubrange(0..<lineStart)
            scanned -= lineStart
            lineStart = 0
        }
    }

    /// Called at end of file: throws if the stream ended inside a line.
    package func finish() throws {
        let rest = buffer[lineStart...]
        if rest.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) {
            throw Failure.truncated(partial: Array(rest.prefix(256)))
        }
    }
}
