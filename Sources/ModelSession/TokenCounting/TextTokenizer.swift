/// Gives the tokens of a text: a model's own tokenizer, or a token counter
/// that can ask one (such as a server's `/tokenize`).
///
/// Cache analysis uses it to find how many tokens a changed prompt block
/// shares at its start with the block the server holds: a server that reuses
/// prefixes token by token reuses those too.
///
/// ```swift
/// if let tokens = try await tokenizer.tokens(of: "You help.") {
///   print(tokens.count)
/// }
/// ```
public protocol TextTokenizer: Sendable {
  /// The token ids of `text`, or `nil` when no tokenizer can be reached
  /// (callers then estimate).
  func tokens(of text: String) async throws -> [Int]?
}
