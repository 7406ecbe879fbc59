import ConformanceModel
import ConformanceSimulation
import Foundation

/// How the server's credential store answers the full-list assembly path: in pages, with a version
/// per account and a cache in front, and with whatever faults the harness injected.
struct CredentialStore: Sendable {
    /// Credentials per page of the store's listing.
    static let pageSize = 2

    struct Page: Sendable {
        var ids: [Data]
        /// The number of accepted credentials the store says the account has.
        var total: Int
        var hasMore: Bool
    }

    enum Failure: Error, Sendable, Hashable {
        case pageFailed(Int)
        case timedOut
    }

    /// Version of each account's credential set; bumped on every change.
    var versions: [String: Int] = [:]
    /// The cache in front of the store: a list and the version it was read at.
    var cache: [String: (version: Int, ids: [Data])] = [:]
    /// Faults still to apply, with how many more times (`nil`: until the end of the test case).
    var faults: [Fault.Kind: Int?] = [:]

    mutating func inject(_ fault: Fault) {
        faults[fault.kind] = .some(fault.count)
    }

    /// Takes one use of a fault, if it is active.
    mutating func take(_ kind: Fault.Kind) -> Bool {
        guard let remaining = faults[kind] else { return false }
        if let count = remaining {
            if count <= 1 { faults[kind] = nil } else { faults[kind] = .some(count - 1) }
        }
        return true
    }

    mutating func changed(_ username: String) {
        versions[username, default: 0] += 1
    }

    func version(_ username: String) -> Int { versions[username, default: 0] }

    /// Reads one page of the accepted credentials.
    mutating func page(_ index: Int, of accepted: [Data]) -> Result<Page, Failure> {
        let start = index * Self.pageSize
        let end = min(accepted.count, start + Self.pageSize)
        let isLast = end >= accepted.count
        if take(.credentialListTimeout) { return .failure(.timedOut) }
        if isLast, take(.paginationFailure) { return .failure(.pageFailed(index)) }
        var ids = start < end ? Array(accepted[start..<end]) : []
        if isLast, !ids.isEmpty, take(.partialCredentialData) { ids.removeLast() }
        return .success(Page(ids: ids, total: accepted.count, hasMore: !isLast))
    }
}

extension Server {
    /// The accepted credential ids of an account, authoritative.
    func acceptedIDs(_ username: String, includeRevoked: Bool = false) -> [Data] {
        accounts[username]?.credentials.filter { includeRevoked || $0.state == .active }.map(\.id) ?? []
    }

    /// Assembles the complete accepted list for a reconciliation signal, or says why it cannot.
    ///
    /// Conforming rules: every page must load, the pages must add up to the store's total, a cached
    /// list is used only if its version is current, and an empty list is returned only when the
    /// store confirms zero accepted credentials. A stale or partial answer is read again once
    /// (the design that skips instead sends nothing for this trigger).
    mutating func assembleAcceptedList(_ username: String) -> Result<[Data], Refusal> {
        let lastRead = store.cache[username]?.ids
        let assembled = assembleOnce(username)
        guard case .failure = assembled else { return assembled }
        // Mutants only: what a list that could not be assembled becomes instead of nothing.
        if decisions.list.fallsBackToLastList, let lastRead { return .success(lastRead) }
        if decisions.list.emptyAfterFailedReread, design.unusableList == .refetch { return .success([]) }
        return assembled
    }

    /// One assembly of the accepted list: the cache when it is current, else the store's pages,
    /// read again once after a failure where the design refetches.
    private mutating func assembleOnce(_ username: String) -> Result<[Data], Refusal> {
        let version = store.version(username)
        if store.take(.staleCache) {
            let stale = store.cache[username] ?? (version: version - 1, ids: [])
            if decisions.list.trustsStaleCache { return .success(stale.ids) }
            if stale.version >= version - decisions.listForms.cacheVersionSlack { return .success(stale.ids) }
            // The cache is behind the store: read the store itself, or skip.
            if design.unusableList == .skip { return .failure("the cached list is stale") }
        }
        let first = readAcceptedList(username, version: version)
        guard case .failure = first, design.unusableList == .refetch, decisions.list.rereadsFailures else { return first }
        if let cached = cachedForReread(username, version: version) { return .success(cached) }
        return readAcceptedList(username, version: version)
    }

    /// Reads the accepted list page by page from the store.
    private mutating func readAcceptedList(_ username: String, version: Int) -> Result<[Data], Refusal> {
        let lenient = decisions.list.sendsPartialList
        let accepted = acceptedIDs(username, includeRevoked: decisions.list.includesRevoked)
        var collected: [Data] = []
        var index = 0
        var total = 0
        while true {
            switch store.page(index, of: accepted) {
            case .failure(.timedOut):
                if let firstPage = firstPageAlone(of: accepted) { return firstPage }
                return decisions.list.emptyOnTimeout ? .success([]) : .failure("the credential query timed out")
            case .failure(.pageFailed(let page)):
                if decisions.listForms.cachesUncheckedReads { store.cache[username] = (version, collected) }
                if lenient { return .success(collected) }
                return .failure(Refusal("page \(page + 1) of the credential list failed to load"))
            case .success(let page):
                collected += page.ids
                total = page.total
                if decisions.listForms.cachesUncheckedReads { store.cache[username] = (version, collected) }
                if stopsByRoundedPageCount(after: index, total: total) { return .success(collected) }
                guard page.hasMore else {
                    if collected.count != total, !lenient, !decisions.listForms.trustsEndOfList {
                        return .failure(Refusal("the list has \(collected.count) of \(total) credentials"))
                    }
                    if collected.isEmpty, decisions.list.refusesEmptyList { return .failure("empty lists are never sent") }
                    store.cache[username] = (version, collected)
                    return .success(collected)
                }
                index += 1
            }
        }
    }
}
