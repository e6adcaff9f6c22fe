import HistoryCompression
import ModelSession
import TestSupport
import Testing

@Suite("Edge cases", .timeLimit(.minutes(10))) struct EdgeCaseTests {
  static let modifiers: [any DynamicProfileModifier] = [
    DroppingCompletedToolCalls(), RollingWindow(.entries(1)), RollingWindow(.tokens(1)),
    SummarizeHistory(
      threshold: .entries(1), model: FixedSummaryModel(), options: .init(store: SummaryStore())),
  ]

  @Test func `empty and nearly empty histories pass through unchanged`() async throws {
    let histories = [
      Transcript(), Transcript(entries: [Make.instructions()]), Transcript(entries: [Make.prompt("p1")]),
      Transcript(entries: [Make.instructions(), Make.prompt("p1")]),
      Transcript(entries: [Make.instructions(), Make.response("orphan response")]),
    ]
    for history in histories {
      for modifier in Self.modifiers {
        let result = try await modifier.transformHistory(history, in: Make.context())
        #expect(result == history, "\(modifier.name) changed \(history.ids)")
      }
    }
  }

  @Test func `a history without instructions keeps its current turn and gets its summary first`() async throws
  {
    let history = Transcript(entries: (1..<8).flatMap(Make.turn) + [Make.prompt("p8")])
    let summarized = try await SummarizeHistory(
      threshold: .entries(6), model: FixedSummaryModel(), options: .init(store: SummaryStore())
    ).separatedResult(history, in: Make.context())
    #expect(summarized[0].isHistorySummary)
    #expect(summarized.last?.id == "p8")
    let windowed = try await RollingWindow(.entries(3)).transformHistory(history, in: Make.context())
    #expect(windowed.ids == ["p7", "r7", "p8"])
  }
}
