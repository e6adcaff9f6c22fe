import HistoryCompression
import ModelSession

extension DynamicProfileModifier {
  /// The history the modifier returns, with a summary written in front of a
  /// prompt taken apart from it (`SummaryPrompt.separated`): the form in
  /// which the cut tests count entries, one for the summary and one for
  /// each kept entry. The merged form itself is tested in SummaryPromptTests.
  func separatedResult(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript {
    SummaryPrompt.separated(try await transformHistory(history, in: context))
  }
}
