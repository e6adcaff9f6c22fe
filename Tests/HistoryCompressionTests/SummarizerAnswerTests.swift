import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// What a summarizer's answer becomes: its text without the spaces and
/// newlines around it, and an answer of only whitespace is no summary.
@Suite("A summarizer's answer", .timeLimit(.minutes(10))) struct SummarizerAnswerTests {
  func conversation(turns: Int) -> Transcript {
    Transcript(entries: [Make.instructions()] + (1..<turns).flatMap(Make.turn) + [Make.prompt("p\(turns)")])
  }

  func summarize(answering answer: String, in context: ProfileModifierContext) async throws -> Transcript {
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: ScriptedLanguageModel(script: ModelScript([.text(answer)])),
      options: .init(store: SummaryStore()))
    return try await modifier.transformHistory(conversation(turns: 8), in: context)
  }

  @Test func `is kept without the whitespace around it`() async throws {
    let result = try await summarize(
      answering: "\n\n  The user asked seven questions.\n\nAll were answered. \t\n", in: Make.context())
    try #require(result.count > 1)
    #expect(
      HistorySummary.summaryText(of: result[1]) == "The user asked seven questions.\n\nAll were answered.")
  }

  @Test func `of only spaces and newlines is an empty summary: a rolling window is kept instead`()
    async throws
  {
    let context = Make.context()
    let result = try await summarize(answering: " \n\t\n  ", in: context)
    let window = try await RollingWindow(.entries(10)).transformHistory(
      conversation(turns: 8), in: Make.context())
    #expect(result == window)
    #expect(
      context.notes.filter { $0.kind == .fallback }.map(\.names) == [
        [.reason: ["the summarizer answered with an empty summary"], .unit: ["entries"]]
      ])
  }
}
