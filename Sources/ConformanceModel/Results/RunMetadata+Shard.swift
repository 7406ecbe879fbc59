extension RunMetadata {
    /// One part of a plan split across runs (`run --shard I/N`): shard `index` holds every
    /// `count`-th test case of the plan, starting with the `index`-th.
    public struct Shard: Sendable, Codable, Hashable {
        /// 1-based: 1 … `count`.
        public var index: Int
        /// How many shards the plan is split into.
        public var count: Int
        /// How many test cases the whole plan has, over all shards.
        public var plannedTestCases: Int

        /// Shard `index` of `count`, of a plan of `plannedTestCases` test cases.
        public init(index: Int, count: Int, plannedTestCases: Int) {
            self.index = index
            self.count = count
            self.plannedTestCases = plannedTestCases
        }

        /// How many of the plan's test cases fall in this shard.
        public var testCases: Int { Self.size(of: index, count: count, planned: plannedTestCases) }

        /// How many of `planned` test cases shard `index` of `count` holds.
        public static func size(of index: Int, count: Int, planned: Int) -> Int {
            guard count > 0, index >= 1, index <= count else { return 0 }
            return planned / count + (index - 1 < planned % count ? 1 : 0)
        }

        /// The position in the whole plan of the `position`-th (0-based) test case of shard `index`.
        public static func planPosition(of position: Int, inShard index: Int, count: Int) -> Int {
            position * count + (index - 1)
        }

        /// `2/4`
        public var description: String { "\(index)/\(count)" }
    }
}
