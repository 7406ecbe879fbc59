// The parser's states, compiled once from `Grammar`.

/// The parser's state machine: for each state, the token types to try, in order, and what each does.
///
/// A state is a position in the grammar just after a token: the stack of rules being parsed and the
/// place reached in each. The transitions out of a state are the tokens that may come next, found by
/// walking the grammar onward from that position, each with the rules it ends and starts. They are
/// tried in grammar order grouped by token type, except that end of file is tried first and
/// free text (`#Other`) last, because it matches any line. Comments and blank lines are accepted and
/// ignored where the grammar does not mention them, except inside descriptions and doc strings.
struct ParserStateMachine: Sendable {
    /// One way out of a state. Plain values only, so trying transitions costs no reference counting.
    struct Transition: Sendable {
        /// The token type to match.
        let token: TokenType
        /// A rule whose look-ahead must succeed before this transition is taken.
        let lookahead: RuleType?
        /// How many rules end (the innermost ones).
        let endCount: Int
        /// The rules started, outermost first: a range of ``ParserStateMachine/startedRules``.
        let starts: Range<Int>
        /// The next state.
        let target: Int
    }

    struct State: Sendable {
        /// The state's transitions: a range of ``ParserStateMachine/transitions``, in the order tried.
        let transitions: Range<Int>
        /// The distinct token types of the transitions, for error messages.
        let expected: [TokenType]
        /// The position, as `rule:index>…` (for diagnostics of the machine itself).
        let path: String
    }

    let states: [State]
    let transitions: [Transition]
    let startedRules: [RuleType]
    /// The state before the first line.
    let start = 0

    static let shared = ParserStateMachine()

    private init() {
        var graph = GrammarGraph()
        graph.build()
        var builder = Builder(graph: graph)
        builder.intern([Frame(rule: .gherkinDocument, node: nil)])
        var index = 0
        while index < builder.pending.count {
            builder.compile(index)
            index += 1
        }
        states = builder.compiled.map { $0! }
        transitions = builder.transitions
        startedRules = builder.startedRules
    }

    // MARK: Compilation

    /// A rule on the stack and the node reached in it (`nil`: not started).
    struct Frame: Hashable {
        let rule: RuleType
        let node: Int?
    }

    struct Candidate {
        let token: TokenType
        let lookahead: RuleType?
        let ends: [RuleType]
        let starts: [RuleType]
        let frames: [Frame]
    }

    private struct Builder {
        let graph: GrammarGraph
        var pending: [[Frame]] = []
        var index: [[Frame]: Int] = [:]
        var compiled: [State?] = []
        var transitions: [Transition] = []
        var startedRules: [RuleType] = []

        init(graph: GrammarGraph) { self.graph = graph }

        @discardableResult
        mutating func intern(_ frames: [Frame]) -> Int {
            if let existing = index[frames] { return existing }
            let id = pending.count
            pending.append(frames)
            index[frames] = id
            compiled.append(nil)
            return id
        }

        mutating func compile(_ id: Int) {
            let frames = pending[id]
            var candidates: [Candidate] = []
            graph.continuations(of: frames, into: &candidates)
            // Group by token type in order of first appearance; EOF first, Other last.
            var order: [TokenType] = []
            var groups: [TokenType: [Candidate]] = [:]
            for candidate in candidates {
                if groups[candidate.token] == nil { order.append(candidate.token) }
                groups[candidate.token, default: []].append(candidate)
            }
            if let i = order.firstIndex(of: .eof) { order.insert(order.remove(at: i), at: 0) }
            if let i = order.firstIndex(of: .other) { order.append(order.remove(at: i)) }
            var local: [(token: TokenType, lookahead: RuleType?, ends: Int, starts: [RuleType], target: Int)] = []
            for token in order {
                for candidate in groups[token]! {
                    let target = intern(candidate.frames)
                    local.append((token, candidate.lookahead, candidate.ends.count, candidate.starts, target))
                }
            }
            let innermost = frames.last!.rule
            let keepsIgnored =
                Grammar.keepsIgnoredTokens.contains(innermost) && candidates.contains { $0.ends.isEmpty }
            if !keepsIgnored {
                for token in Grammar.ignoredTokens where groups[token] == nil {
                    order.append(token)
                    local.append((token, nil, 0, [], id))
                }
            }
            let first = transitions.count
            for t in local {
                let startIndex = startedRules.count
                startedRules += t.starts
                transitions.append(
                    Transition(
                        token: t.token, lookahead: t.lookahead, endCount: t.ends,
                        starts: startIndex..<startedRules.count, target: t.target))
            }
            let path = frames.map { frame in
                "\(frame.rule):\(frame.node.map { graph.nodes[$0].indexInParent } ?? 0)"
            }.joined(separator: ">")
            compiled[id] = State(transitions: first..<transitions.count, expected: order, path: path)
        }
    }
}
