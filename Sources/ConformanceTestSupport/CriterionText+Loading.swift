import ConformanceKit
import Foundation

extension CriterionText {
    /// Loads criterion texts given as `(path, text)` with a step library.
    package static func load(_ files: [(path: String, text: String)], library: StepLibrary = .standard) -> CriteriaLoader.Result {
        CriteriaLoader(library: library).load(sources: files.map { ($0.path, Data($0.text.utf8)) })
    }

    /// The package's own criteria, loaded with the standard steps.
    package static func packageCriteria() -> CriteriaLoader.Result {
        CriteriaLoader().load(root: PackagePaths.criteria.path)
    }
}
