// The Gherkin grammar as data, and the parser state machine compiled from it.

/// The rules of the Gherkin grammar. A rule marked `builds` produces an AST node.
enum RuleType: Int, CaseIterable, Sendable {
    case none
    case gherkinDocument, feature, featureHeader, rule, ruleHeader, background, scenarioDefinition, scenario
    case examplesDefinition, examples, examplesTable, step, stepArg, dataTableAndMaybeDocString
    case docStringAndMaybeDataTable, dataTable, docString, tags, descriptionHelper, description

    /// Whether the AST builder sees this rule start and end.
    var builds: Bool {
        switch self {
        case .stepArg, .dataTableAndMaybeDocString, .docStringAndMaybeDataTable, .descriptionHelper, .none: false
        default: true
        }
    }
}

/// The grammar, in the reference's notation:
///
/// ```
/// GherkinDocument! := Feature? #EOF
/// Feature! := FeatureHeader Background? ScenarioDefinition* Rule*
/// FeatureHeader! := #Language? Tags? #FeatureLine DescriptionHelper
/// Rule! := RuleHeader Background? ScenarioDefinition*
/// RuleHeader! := Tags? #RuleLine DescriptionHelper
/// Background! := #BackgroundLine DescriptionHelper Step*
/// ScenarioDefinition! [#Empty|#Comment|#TagLine->#ScenarioLine] := Tags? Scenario
/// Scenario! := #ScenarioLine DescriptionHelper Step* ExamplesDefinition*
/// ExamplesDefinition! [#Empty|#Comment|#TagLine->#ExamplesLine] := Tags? Examples
/// Examples! := #ExamplesLine DescriptionHelper ExamplesTable?
/// ExamplesTable! := #TableRow+
/// Step! := #StepLine StepArg?
/// StepArg := DataTableAndMaybeDocString | DocStringAndMaybeDataTable
/// DataTableAndMaybeDocString := DataTable DocString?
/// DocStringAndMaybeDataTable := DocString DataTable?
/// DataTable! := #TableRow+
/// DocString! := #DocStringSeparator #Other* #DocStringSeparator
/// Tags! := #TagLine+
/// DescriptionHelper := #Empty* Description?
/// Description! := (#Other | #Comment)+
/// ```
///
/// `#Comment` and `#Empty` lines are also accepted (and ignored) anywhere outside descriptions and
/// open doc strings. The bracketed look-ahead means: a tag line starts that rule only if, past
/// further tags, comments and blank lines, the next line has the given type.
enum Grammar {
    indirect enum Expression {
        case token(TokenType)
        case rule(RuleType)
        case sequence([Expression])
        case choice([Expression])
        case optional(Expression)
        case zeroOrMore(Expression)
        case oneOrMore(Expression)
    }

    static func definition(of rule: RuleType) -> Expression {
        switch rule {
        case .none: .sequence([])
        case .gherkinDocument: .sequence([.optional(.rule(.feature)), .token(.eof)])
        case .feature:
            .sequence([
                .rule(.featureHeader), .optional(.rule(.background)), .zeroOrMore(.rule(.scenarioDefinition)),
                .zeroOrMore(.rule(.rule)),
            ])
        case .featureHeader:
            .sequence([
                .optional(.token(.language)), .optional(.rule(.tags)), .token(.featureLine), .rule(.descriptionHelper),
            ])
        case .rule:
            .sequence([.rule(.ruleHeader), .optional(.rule(.background)), .zeroOrMore(.rule(.scenarioDefinition))])
        case .ruleHeader: .sequence([.optional(.rule(.tags)), .token(.ruleLine), .rule(.descriptionHelper)])
        case .background: .sequence([.token(.backgroundLine), .rule(.descriptionHelper), .zeroOrMore(.rule(.step))])
        case .scenarioDefinition: .sequence([.optional(.rule(.tags)), .rule(.scenario)])
        case .scenario:
            .sequence([
                .token(.scenarioLine), .rule(.descriptionHelper), .zeroOrMore(.rule(.step)),
                .zeroOrMore(.rule(.examplesDefinition)),
            ])
        case .examplesDefinition: .sequence([.optional(.rule(.tags)), .rule(.examples)])
        case .examples:
            .sequence([.token(.examplesLine), .rule(.descriptionHelper), .optional(.rule(.examplesTable))])
        case .examplesTable: .oneOrMore(.token(.tableRow))
        case .step: .sequence([.token(.stepLine), .optional(.rule(.stepArg))])
        case .stepArg: .choice([.rule(.dataTableAndMaybeDocString), .rule(.docStringAndMaybeDataTable)])
        case .dataTableAndMaybeDocString: .sequence([.rule(.dataTable), .optional(.rule(.docString))])
        case .docStringAndMaybeDataTable: .sequence([.rule(.docString), .optional(.rule(.dataTable))])
        case .dataTable: .oneOrMore(.token(.tableRow))
        case .docString:
            .sequence([.token(.docStringSeparator), .zeroOrMore(.token(.other)), .token(.docStringSeparator)])
        case .tags: .oneOrMore(.token(.tagLine))
        case .descriptionHelper: .sequence([.zeroOrMore(.token(.empty)), .optional(.rule(.description))])
        case .description: .oneOrMore(.choice([.token(.other), .token(.comment)]))
        }
    }

    /// The look-ahead of a rule: the token types it may skip, and the one it must then find.
    static func lookahead(of rule: RuleType) -> (skip: Set<TokenType>, target: TokenType)? {
        switch rule {
        case .scenarioDefinition: ([.empty, .comment, .tagLine], .scenarioLine)
        case .examplesDefinition: ([.empty, .comment, .tagLine], .examplesLine)
        default: nil
        }
    }

    /// Rules inside which comments and blank lines are content, not ignorable.
    static let keepsIgnoredTokens: Set<RuleType> = [.description, .docString]

    /// Token types accepted and ignored everywhere else, in the order they are tried.
    static let ignoredTokens: [TokenType] = [.comment, .empty]
}
