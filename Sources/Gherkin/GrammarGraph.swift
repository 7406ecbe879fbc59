// The grammar flattened into a graph, and the walk that finds what may follow a position.

/// The grammar's expressions flattened into nodes with parent links.
struct GrammarGraph {
    enum Kind {
        case token(TokenType)
        case rule(RuleType)
        case sequence, choice, optional, zeroOrMore, oneOrMore
    }

    struct Node {
        let kind: Kind
        var children: [Int] = []
        let parent: Int?
        let indexInParent: Int
    }

    typealias Frame = ParserStateMachine.Frame
    typealias Candidate = ParserStateMachine.Candidate

    var nodes: [Node] = []
    var roots: [RuleType: Int] = [:]
    var nullable: [Bool] = []

    mutating func build() {
        for rule in RuleType.allCases where rule != .none {
            roots[rule] = add(Grammar.definition(of: rule), parent: nil, index: 0)
        }
        nullable = Array(repeating: false, count: nodes.count)
        // Iterate to a fixed point (rules refer to each other).
        var changed = true
        while changed {
            changed = false
            for id in nodes.indices.reversed() {
                let value = computeNullable(id)
                if value != nullable[id] {
                    nullable[id] = value
                    changed = true
                }
            }
        }
    }

    private mutating func add(_ expression: Grammar.Expression, parent: Int?, index: Int) -> Int {
        let id = nodes.count
        let children: [Grammar.Expression]
        let kind: Kind
        switch expression {
        case .token(let t): (kind, children) = (.token(t), [])
        case .rule(let r): (kind, children) = (.rule(r), [])
        case .sequence(let items): (kind, children) = (.sequence, items)
        case .choice(let items): (kind, children) = (.choice, items)
        case .optional(let item): (kind, children) = (.optional, [item])
        case .zeroOrMore(let item): (kind, children) = (.zeroOrMore, [item])
        case .oneOrMore(let item): (kind, children) = (.oneOrMore, [item])
        }
        nodes.append(Node(kind: kind, parent: parent, indexInParent: index))
        var ids: [Int] = []
        for (i, child) in children.enumerated() { ids.append(add(child, parent: id, index: i)) }
        nodes[id].children = ids
        return id
    }

    private func computeNullable(_ id: Int) -> Bool {
        let node = nodes[id]
        switch node.kind {
        case .token: return false
        case .rule(let r): return nullable[roots[r]!]
        case .sequence: return node.children.allSatisfy { nullable[$0] }
        case .choice: return node.children.contains { nullable[$0] }
        case .optional, .zeroOrMore: return true
        case .oneOrMore: return nullable[node.children[0]]
        }
    }

    /// Everything that may come after the position `frames`, in grammar order.
    func continuations(of frames: [Frame], into out: inout [Candidate]) {
        let top = frames.last!
        let outer = Array(frames.dropLast())
        if let node = top.node {
            after(node, owner: top.rule, outer: outer, ends: [], into: &out)
        } else {
            let root = roots[top.rule]!
            first(root, owner: top.rule, outer: outer, ends: [], starts: [], pending: nil, into: &out)
            if nullable[root] { ruleEnded(top.rule, outer: outer, ends: [], into: &out) }
        }
    }

    /// What may follow once node `id` (of rule `owner`) is complete.
    private func after(_ id: Int, owner: RuleType, outer: [Frame], ends: [RuleType], into out: inout [Candidate]) {
        guard let parentID = nodes[id].parent else {
            ruleEnded(owner, outer: outer, ends: ends, into: &out)
            return
        }
        let parent = nodes[parentID]
        switch parent.kind {
        case .sequence:
            for child in parent.children[(nodes[id].indexInParent + 1)...] {
                first(child, owner: owner, outer: outer, ends: ends, starts: [], pending: nil, into: &out)
                if !nullable[child] { return }
            }
            after(parentID, owner: owner, outer: outer, ends: ends, into: &out)
        case .zeroOrMore, .oneOrMore:
            first(id, owner: owner, outer: outer, ends: ends, starts: [], pending: nil, into: &out)
            after(parentID, owner: owner, outer: outer, ends: ends, into: &out)
        case .optional, .choice:
            after(parentID, owner: owner, outer: outer, ends: ends, into: &out)
        case .token, .rule:
            break
        }
    }

    private func ruleEnded(_ rule: RuleType, outer: [Frame], ends: [RuleType], into out: inout [Candidate]) {
        guard let parentFrame = outer.last, let node = parentFrame.node else { return }
        let newEnds = rule.builds ? ends + [rule] : ends
        after(node, owner: parentFrame.rule, outer: Array(outer.dropLast()), ends: newEnds, into: &out)
    }

    /// The tokens that may start node `id` (of rule `owner`).
    private func first(
        _ id: Int, owner: RuleType, outer: [Frame], ends: [RuleType], starts: [RuleType], pending: RuleType?,
        into out: inout [Candidate]
    ) {
        let node = nodes[id]
        switch node.kind {
        case .token(let token):
            var lookahead: RuleType?
            if let rule = pending, let hint = Grammar.lookahead(of: rule), hint.skip.contains(token) { lookahead = rule }
            out.append(
                Candidate(
                    token: token, lookahead: lookahead, ends: ends, starts: starts,
                    frames: outer + [Frame(rule: owner, node: id)]))
        case .rule(let rule):
            let newStarts = rule.builds ? starts + [rule] : starts
            let newPending = Grammar.lookahead(of: rule) != nil ? rule : pending
            first(
                roots[rule]!, owner: rule, outer: outer + [Frame(rule: owner, node: id)], ends: ends, starts: newStarts,
                pending: newPending, into: &out)
        case .sequence:
            for child in node.children {
                first(child, owner: owner, outer: outer, ends: ends, starts: starts, pending: pending, into: &out)
                if !nullable[child] { break }
            }
        case .choice:
            for child in node.children {
                first(child, owner: owner, outer: outer, ends: ends, starts: starts, pending: pending, into: &out)
            }
        case .optional, .zeroOrMore, .oneOrMore:
            first(node.children[0], owner: owner, outer: outer, ends: ends, starts: starts, pending: pending, into: &out)
        }
    }
}
