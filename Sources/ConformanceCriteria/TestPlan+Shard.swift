extension TestPlan {
    /// Shard `index` (1-based) of `count`: every `count`-th test case of the plan, starting with the
    /// `index`-th, in plan order.
    ///
    /// The criteria and targets stay those of the whole plan, so that the reports of the shards
    /// merge into the report of the whole plan (`passkey-conformance merge`). Dealing the cases out
    /// in turn keeps the shards within one test case of each other in size and spreads each
    /// criterion and target over all of them.
    public func shard(_ index: Int, of count: Int) -> TestPlan {
        precondition(count >= 1 && (1...count).contains(index), "a shard is 1…count of count >= 1")
        let kept = cases.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
        return TestPlan(cases: kept, criteria: criteria, targets: targets)
    }
}
