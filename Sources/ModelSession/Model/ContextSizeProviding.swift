/// A language model that can say how many tokens its context window holds:
/// the prompt and the response together.
///
/// The framework's models spell it `contextSize`; so do ContextKit's. History
/// modifiers given a budget relative to the window (see
/// `ContextBudget.contextShare(_:)` in HistoryCompression) ask the session's
/// model through this protocol, and fail with a clear error when the model
/// cannot say.
///
/// ```swift
/// if let model = model as? any ContextSizeProviding {
///   print("window:", try await model.contextSize, "tokens")
/// }
/// ```
public protocol ContextSizeProviding: LanguageModel {
  /// The most tokens the model reads and writes in one generation, prompt
  /// and response together.
  ///
  /// - Throws: an error that says why when the size cannot be known (the
  ///   server does not report it, or cannot be reached).
  var contextSize: Int { get async throws }
}
