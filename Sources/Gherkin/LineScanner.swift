// Reading the parts of a line: tags, table cells, the `# language:` header.

/// Splits lines into tags and cells, byte by byte.
enum LineScanner {
    /// The tags of a line that starts with `@`; a `#` after whitespace starts a comment.
    ///
    /// Each `@` starts a tag that runs to the next `@`; a tag containing whitespace is an error.
    static func tags(of line: SourceLine, in source: SourceText) throws(GherkinError) -> [TableCell] {
        let b = source.bytes
        let start = line.trimmedStart
        var end = source.trimmedEnd(start, line.end)
        // Cut at the first whitespace followed by `#`.
        var p = start
        while p < end {
            let ws = source.whitespaceLength(at: p, end: end)
            if ws > 0 {
                if p + ws < end && b[p + ws] == UInt8(ascii: "#") {
                    end = source.trimmedEnd(start, p)
                    break
                }
                p += ws
            } else {
                p += SourceText.scalarLength(b[p])
            }
        }
        var tags: [TableCell] = []
        var column = line.indent + 1
        // Pieces between `@`s; the one before the first `@` is skipped.
        var pieceStart = -1
        p = start
        func emit(_ pieceStart: Int, _ pieceEnd: Int) throws(GherkinError) {
            let s = source.trimmedStart(pieceStart, pieceEnd)
            let e = source.trimmedEnd(s, pieceEnd)
            var q = s
            while q < e {
                if source.whitespaceLength(at: q, end: e) > 0 {
                    throw GherkinError(
                        message: "A tag may not contain whitespace", location: Location(line: line.number, column: column),
                        kind: .invalidTag)
                }
                q += SourceText.scalarLength(b[q])
            }
            tags.append(TableCell(location: Location(line: line.number, column: column), value: "@" + source.string(s, e)))
            column += source.scalarCount(pieceStart, pieceEnd) + 1
        }
        while p < end {
            if b[p] == UInt8(ascii: "@") {
                if pieceStart >= 0 { try emit(pieceStart, p) }
                pieceStart = p + 1
            }
            p += 1
        }
        if pieceStart >= 0 { try emit(pieceStart, end) }
        return tags
    }

    /// The cells of a table row: the text between pipes, unescaped and trimmed.
    ///
    /// Text before the first pipe and after the last one is not a cell. `\|` is a pipe, `\\` a
    /// backslash, `\n` a line break; a backslash before anything else stays.
    static func cells(of line: SourceLine, in source: SourceText) -> [TableCell] {
        let start = line.trimmedStart
        let end = source.trimmedEnd(start, line.end)
        return source.bytes.withUnsafeBufferPointer { b in
            var pipes = 0
            for p in start..<end where b[p] == UInt8(ascii: "|") { pipes += 1 }
            var cells: [TableCell] = []
            cells.reserveCapacity(max(pipes - 1, 0))
            var column = 0  // scalars consumed
            var cellStartColumn = 1
            var cellStart = -1  // byte offset of the current cell, -1 before the first pipe
            var escaped = false
            var p = start
            while p < end {
                let c = b[p]
                if c & 0xC0 != 0x80 { column += 1 }
                if c == UInt8(ascii: "|") {
                    if cellStart >= 0 {
                        let leading = cellStartColumn + line.indent
                        cells.append(
                            escaped
                                ? makeCell(unescape(b, cellStart, p), line: line.number, column: leading)
                                : plainCell(source, b, cellStart, p, line: line.number, column: leading))
                    }
                    cellStart = p + 1
                    cellStartColumn = column + 1
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                    // The escaped character is consumed with the backslash.
                    if p + 1 < end {
                        p += 1
                        column += 1
                    }
                }
                p += 1
            }
            return cells
        }
    }

    /// A cell without backslashes: the trimmed source bytes.
    private static func plainCell(
        _ source: SourceText, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int, column: Int
    ) -> TableCell {
        var s = start
        var indent = 0
        while s < end {
            let l = SourceText.whitespaceLength(b, at: s, end: end)
            if l == 0 { break }
            s += l
            indent += 1
        }
        let e = source.trimmedEnd(s, end)
        return TableCell(location: Location(line: line, column: column + indent), value: source.string(s, e))
    }

    /// The bytes of a cell with its escapes resolved.
    private static func unescape(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [UInt8] {
        var cell: [UInt8] = []
        cell.reserveCapacity(end - start)
        var p = start
        while p < end {
            let c = b[p]
            if c == UInt8(ascii: "\\") {
                p += 1
                guard p < end else {
                    cell.append(c)
                    break
                }
                let n = b[p]
                if n == UInt8(ascii: "n") {
                    cell.append(0x0A)
                    p += 1
                    continue
                }
                if n != UInt8(ascii: "|") && n != UInt8(ascii: "\\") { cell.append(c) }
                // Copy the whole escaped scalar.
                let stop = min(p + SourceText.scalarLength(n), end)
                while p < stop {
                    cell.append(b[p])
                    p += 1
                }
                continue
            }
            cell.append(c)
            p += 1
        }
        return cell
    }

    private static func makeCell(_ cell: [UInt8], line: Int, column: Int) -> TableCell {
        // Trim whitespace other than line breaks (which come from `\n` escapes).
        var s = 0
        var indent = 0
        cell.withUnsafeBufferPointer { buffer in
            while s < buffer.count, buffer[s] != 0x0A {
                let l = SourceText.whitespaceLength(buffer, at: s, end: buffer.count)
                if l == 0 { break }
                s += l
                indent += 1
            }
        }
        var e = cell.count
        cell.withUnsafeBufferPointer { buffer in
            var q = s
            var lastContentEnd = s
            while q < buffer.count {
                let l = buffer[q] == 0x0A ? 0 : SourceText.whitespaceLength(buffer, at: q, end: buffer.count)
                if l > 0 {
                    q += l
                } else {
                    q += SourceText.scalarLength(buffer[q])
                    lastContentEnd = min(q, buffer.count)
                }
            }
            e = lastContentEnd
        }
        return TableCell(
            location: Location(line: line, column: column + indent), value: String(decoding: cell[s..<e], as: UTF8.self))
    }

    /// The language code of a `# language: xx` header line, or `nil` if the line is not one.
    static func languageHeader(of line: SourceLine, in source: SourceText) -> String? {
        let b = source.bytes
        let end = line.end
        var p = line.trimmedStart
        guard p < end, b[p] == UInt8(ascii: "#") else { return nil }
        p = source.trimmedStart(p + 1, end)
        guard source.hasPrefix(languageWord, at: p, end: end) else { return nil }
        p = source.trimmedStart(p + languageWord.count, end)
        guard p < end, b[p] == UInt8(ascii: ":") else { return nil }
        p = source.trimmedStart(p + 1, end)
        let nameStart = p
        while p < end, isLanguageCodeByte(b[p]) { p += 1 }
        guard p > nameStart, source.trimmedStart(p, end) == end else { return nil }
        return source.string(nameStart, p)
    }

    private static let languageWord = Array("language".utf8)

    private static func isLanguageCodeByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }
}
