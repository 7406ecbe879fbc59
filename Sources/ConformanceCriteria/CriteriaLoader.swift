import ConformanceCrypto
import ConformanceModel
import Foundation
import Gherkin

/// Loads criterion files into criteria, collecting a diagnostic for every defect instead of stopping
/// at the first.
///
/// Conventions (see `Documentation/criterion-files.md`): one `.feature` file per criterion, named
/// after its id; feature tags `@criterion:<id>`, `@level:core|quality`, `@group:<group>`, optional
/// `@derived`; a description with the sections `Statement:`, `Verification:`, `Items:`, `Source:`
/// and `References:`; every scenario tagged `@verify:<id>.<item>`; `@platform:`, `@requires:` and
/// `@needs:` tags select targets and capabilities.
public struct CriteriaLoader: Sendable {
    /// What loading produced: the criteria that loaded, every diagnostic, and the files' digest.
    public struct Result: Sendable {
        /// The criteria that loaded, in path order; a file whose id duplicates an earlier one is left out.
        public var criteria: [Criterion]
        /// Every defect found, errors and warnings, deduplicated and sorted by file, line and column.
        public var diagnostics: [Diagnostic]
        /// SHA-256 over the files' relative paths and bytes, in path order (hex).
        public var digest: String
        /// The paths of every file read, sorted, including those that failed to load.
        public var files: [String]
        /// Whether any diagnostic is an error (warnings alone do not stop a run).
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The step definitions that every step of a scenario must match exactly once.
    public let matcher: any StepMatcher

    /// Creates a loader that checks steps against `matcher` (ConformanceKit's `StepLibrary`).
    public init(matcher: any StepMatcher) {
        self.matcher = matcher
    }

    /// The criterion files below `root` (or `root` itself if it is a file), sorted by path.
    public static func featureFiles(at root: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw SystemIssue("\(root): no such file or directory")
        }
        if !isDirectory.boolValue { return [root] }
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw SystemIssue("\(root): cannot list the directory")
        }
        var files: [String] = []
        while let entry = enumerator.nextObject() as? String {
            if entry.hasSuffix(".feature") { files.append((root as NSString).appendingPathComponent(entry)) }
        }
        return files.sorted()
    }

    /// The digest `load(root:)` would give the files below `root`, without parsing them; `nil` when
    /// they cannot be listed or read.
    public static func digest(root: String) -> String? {
        guard let files = try? featureFiles(at: root) else { return nil }
        var input = Data()
        for path in files.sorted() {
            guard let bytes = contents(of: path) else { return nil }
            var relative = root.isEmpty || !path.hasPrefix(root) ? path : String(path.dropFirst(root.count).drop(while: { $0 == "/" }))
            if relative.isEmpty { relative = (path as NSString).lastPathComponent }
            input.append(Data(relative.utf8))
            input.append(0)
            input.append(bytes)
        }
        return SHA256.hash(input).map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of a file, read to its end (a pipe included), or `nil` when it cannot be read.
    static func contents(of path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            return nil
        }
    }

    /// Loads every criterion file below `root`.
    public func load(root: String) -> Result {
        let files: [String]
        do {
            files = try Self.featureFiles(at: root)
        } catch {
            return Result(criteria: [], diagnostics: [Diagnostic(file: root, line: 1, "\(error)")], digest: "", files: [])
        }
        var sources: [(path: String, bytes: Data?)] = []
        for file in files {
            sources.append((file, Self.contents(of: file)))
        }
        return load(sources: sources, root: root)
    }

    /// Loads criteria from file contents (`nil` bytes: the file could not be read).
    public func load(sources: [(path: String, bytes: Data?)], root: String = "") -> Result {
        var criteria: [Criterion] = []
        var diagnostics: [Diagnostic] = []
        var digestInput = Data()
        var seen: [CriterionID: String] = [:]
        for (path, bytes) in sources.sorted(by: { $0.path < $1.path }) {
            guard let bytes else {
                diagnostics.append(Diagnostic(file: path, line: 1, "the file cannot be read"))
                continue
            }
            var relative = root.isEmpty || !path.hasPrefix(root) ? path : String(path.dropFirst(root.count).drop(while: { $0 == "/" }))
            // A single file given as the root: the file's own name, as if its directory were the root.
            if relative.isEmpty { relative = (path as NSString).lastPathComponent }
            digestInput.append(Data(relative.utf8))
            digestInput.append(0)
            digestInput.append(bytes)
            guard let text = String(data: bytes, encoding: .utf8) else {
                diagnostics.append(Diagnostic(file: path, line: 1, "the file is not valid UTF-8"))
                continue
            }
            var fileDiagnostics: [Diagnostic] = []
            if let criterion = loadFile(text: text, path: path, relative: relative, diagnostics: &fileDiagnostics) {
                if let earlier = seen[criterion.info.id] {
                    let location = criterion.idLocation
                    fileDiagnostics.append(
                        Diagnostic(
                            file: path, line: location.line, column: location.column,
                            "duplicate criterion id \(criterion.info.id): also declared in \(earlier)"))
                } else {
                    seen[criterion.info.id] = path
                    criteria.append(criterion)
                }
            }
            diagnostics += fileDiagnostics
        }
        let digest = SHA256.hash(digestInput).map { String(format: "%02x", $0) }.joined()
        // A defect inherited by several scenarios (a feature tag, a Background step) is reported once.
        return Result(criteria: criteria, diagnostics: Array(Set(diagnostics)).sorted(), digest: digest, files: sources.map(\.path).sorted())
    }

    static let knownTagPrefixes = ["criterion", "level", "group", "derived", "recommendation", "verify", "requires", "platform", "needs"]

    func loadFile(text: String, path: String, relative: String, diagnostics: inout [Diagnostic]) -> Criterion? {
        let parsed = GherkinSource.parse(text, uri: path)
        for error in parsed.errors {
            diagnostics.append(Diagnostic(file: path, line: error.location.line, column: error.location.column ?? 1, error.message))
        }
        guard let document = parsed.document else { return nil }
        guard let feature = document.feature else {
            diagnostics.append(Diagnostic(file: path, line: 1, "the file has no Feature"))
            return nil
        }
        let featureLine = feature.location.line
        func error(_ message: String, line: Int? = nil, column: Int = 1) {
            diagnostics.append(Diagnostic(file: path, line: line ?? featureLine, column: column, message))
        }
        let featureTags = feature.tags
        func values(_ prefix: String) -> [(String, Tag)] {
            featureTags.compactMap { tag in
                tag.name.hasPrefix("@\(prefix):") ? (String(tag.name.dropFirst(prefix.count + 2)), tag) : nil
            }
        }
        // Identity.
        let ids = values("criterion")
        let fileStem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var id = CriterionID(rawValue: fileStem)
        if ids.isEmpty {
            error("the feature has no @criterion:<id> tag")
        } else if ids.count > 1 {
            error(
                "the feature has \(ids.count) @criterion tags; a file holds one criterion", line: ids[1].1.location.line, column: ids[1].1.location.column ?? 1)
        } else {
            let tagLocation = ids[0].1.location
            do {
                id = try CriterionID(parsing: ids[0].0)
            } catch let problem {
                error("@criterion: \(problem)", line: tagLocation.line, column: tagLocation.column ?? 1)
                id = CriterionID(rawValue: ids[0].0)
            }
            if id.rawValue != fileStem {
                error("criterion id \(id) does not match the file name \(fileStem).feature", line: tagLocation.line, column: tagLocation.column ?? 1)
            }
        }
        var level = CriterionInfo.Level.core
        let levels = values("level")
        if levels.isEmpty {
            error("the feature has no @level:core or @level:quality tag")
        } else if let parsedLevel = CriterionInfo.Level(rawValue: levels[0].0) {
            level = parsedLevel
        } else {
            error("unknown level \"\(levels[0].0)\" (use core or quality)", line: levels[0].1.location.line, column: levels[0].1.location.column ?? 1)
        }
        let groups = values("group")
        let group = groups.first?.0 ?? ""
        if groups.isEmpty {
            error("the feature has no @group:<group> tag")
        } else if !id.rawValue.hasPrefix(group + "-") {
            error("criterion \(id) is not in its declared group \(group)", line: groups[0].1.location.line, column: groups[0].1.location.column ?? 1)
        }
        for tag in featureTags + feature.allScenarios.flatMap(\.tags) {
            let name = tag.name.dropFirst()
            let prefix = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if !Self.knownTagPrefixes.contains(prefix) {
                diagnostics.append(
                    Diagnostic(
                        .warning, file: path, line: tag.location.line, column: tag.location.column ?? 1,
                        "unknown tag \(tag.name); the harness reads @criterion, @level, @group, @derived, @recommendation, @verify, @requires, @platform and @needs"
                    ))
            }
        }
        // Description.
        let sections = Self.sections(of: feature.description)
        for required in ["Statement", "Verification", "Items", "Source"] where (sections[required] ?? []).isEmpty {
            error("the description has no \"\(required):\" section")
        }
        var items: [CriterionInfo.VerifyItem] = []
        for line in sections["Items"] ?? [] {
            guard let colon = line.firstIndex(of: ":") else {
                error("verify item \"\(line)\" must read \"V1: what is verified\"")
                continue
            }
            let local = line[..<colon].trimmingCharacters(in: .whitespaces)
            let itemText = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !local.isEmpty, !local.contains(" ") else {
                error("verify item \"\(line)\" must start with an item id such as V1")
                continue
            }
            do throws(IdentifierError) {
                try VerifyItemID.checkLocal(local)
            } catch let problem {
                error("verify item \"\(line)\": \(problem)")
                continue
            }
            items.append(.init(id: VerifyItemID(criterion: id, local: local), text: itemText))
        }
        let display = Self.displayPath(relative: relative, path: path)
        var title = feature.name
        if title.hasPrefix(id.rawValue + " ") { title = String(title.dropFirst(id.rawValue.count + 1)) }
        let recommendation = featureTags.contains { $0.name == "@recommendation" }
        let info = CriterionInfo(
            id: id, title: title, level: level, group: group,
            origin: recommendation ? .recommendation : featureTags.contains { $0.name == "@derived" } ? .derived : .source,
            statement: (sections["Statement"] ?? []).joined(separator: " "),
            verification: ((sections["Verification"] ?? []) + (sections["Harness choices"].map { ["Harness choices:"] + $0 } ?? []))
                .joined(separator: " "),
            verifyItems: items, source: (sections["Source"] ?? []).joined(separator: " "),
            references: sections["References"] ?? [], file: display)
        // Scenarios.
        let scenarios = loadScenarios(
            document: document, pickles: parsed.pickles, path: path, display: display, criterionID: id, items: Set(items.map(\.id)), diagnostics: &diagnostics)
        let covered = Set(scenarios.flatMap(\.verifyItems))
        for item in items where !covered.contains(item.id) {
            error("verify item \(item.id) is covered by no scenario")
        }
        if scenarios.isEmpty { error("the criterion has no scenario") }
        let idTag = ids.first?.1.location
        return Criterion(
            info: info, scenarios: scenarios,
            idLocation: (idTag?.line ?? featureLine, idTag?.column ?? 1))
    }

    /// The path reports show: relative to the criteria root's parent (`Criteria/N2.6-…/N2.6-AC01.feature`),
    /// so reports do not depend on where the checkout lies.
    static func displayPath(relative: String, path: String) -> String {
        guard relative != path else { return path }
        let rootName = ((path.dropLast(relative.count).trimmingCharacters(in: CharacterSet(charactersIn: "/"))) as NSString).lastPathComponent
        return rootName.isEmpty ? relative : rootName + "/" + relative
    }

    /// Splits a feature description into its `Name:` sections, one trimmed line each.
    static func sections(of description: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for raw in description.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if let colon = line.firstIndex(of: ":"),
                ["Statement", "Verification", "Harness choices", "Items", "Source", "References"].contains(String(line[..<colon]))
            {
                current = String(line[..<colon])
                let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                sections[current!, default: []] += rest.isEmpty ? [] : [rest]
                continue
            }
            if let current { sections[current, default: []].append(line) }
        }
        return sections
    }
}
