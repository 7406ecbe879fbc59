/// Counts in words for messages: `1 test case`, `3 test cases`.
public enum Counting {
    /// `value` and the noun, plural unless `value` is 1 (`plural`, or the singular with an `s`).
    public static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? singular : plural ?? singular + "s")
    }
}
