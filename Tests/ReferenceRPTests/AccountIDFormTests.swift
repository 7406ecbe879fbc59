import Foundation
import Testing

@testable import ReferenceRP

/// The prefixed account id form writes what the C formatter `acct-%06d` writes, digit for digit.
@Suite("reference RP: prefixed account ids")
struct AccountIDFormTests {
    @Test(
        "acct- and at least six digits, zero-padded, for every width", arguments: [0, 1, 9, 42, 999, 99_999, 100_000, 999_999, 1_000_000, 12_345_678, -1, -42])
    func matchesTheFormatter(number: Int) {
        #expect(Server.prefixedAccountID(number) == String(format: "acct-%06d", number))
    }
}
