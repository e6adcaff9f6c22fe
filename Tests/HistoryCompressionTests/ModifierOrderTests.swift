import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// The worked example of docs/history.md: a profile's modifiers, run in the order a session runs them.
@Suite("Modifier order", .timeLimit(.minutes(10))) struct ModifierOrderTests {
  /// The stored history of the example: turn 1 used a tool, turn 3 is in its tool loop.
  static let stored = Transcript(entries: [
    Make.prompt("P1"), Make.calls("T1", ["c1"]), Make.output("c1"), Make.response("R1"), Make.prompt("P2"),
    Make.response("R2"), Make.prompt("P3"), Make.calls("T3", ["c3"]), Make.output("c3"),
  ])

  static func stages(of profile: some DynamicProfile) async throws -> [(String, [String])] {
    var history = stored
    history.insert(Make.instructions(), at: 0)
    // The modifiers as the session runs them before the next generation of turn 3 (round 1).
    var resolution = ProfileResolution()
    try await profile.resolve(into: &resolution)
    var stages: [(String, [String])] = []
    for modifier in resolution.modifiers.reversed() {
      history = try await modifier.transformHistory(history, in: Make.context(round: 1))
      // A summary written in front of a prompt counts as the summary and the prompt.
      stages.append(
        (modifier.name, SummaryPrompt.separated(history).map { $0.isHistorySummary ? "S" : $0.id }))
    }
    return stages
  }

  @Test func `the last modifier written runs first: the worked example`() async throws {
    let summarizer = FixedSummaryModel()
    let profile = Profile { "Be helpful." }
      .rollingWindow(.entries(8))
      .summarizeHistory(threshold: .entries(6), model: summarizer, options: .init(store: SummaryStore()))
      .droppingCompletedToolCalls()
    let stages = try await Self.stages(of: profile)
    #expect(stages.map(\.0) == ["droppingCompletedToolCalls", "summarizeHistory", "rollingWindow"])
    #expect(stages[0].1 == ["instructions", "P1", "R1", "P2", "R2", "P3", "T3", "c3"])
    #expect(stages[1].1 == ["instructions", "S", "P3", "T3", "c3"])
    #expect(stages[2].1 == ["instructions", "S", "P3", "T3", "c3"])
  }

  @Test func `the companion package's order: a window of the same size before the summarizer starves it`()
    async throws
  {
    let summarizer = FixedSummaryModel()
    let profile = Profile { "Be helpful." }
      .summarizeHistory(threshold: .entries(6), model: summarizer, options: .init(store: SummaryStore()))
      .rollingWindow(.entries(6))
      .droppingCompletedToolCalls()
    let stages = try await Self.stages(of: profile)
    #expect(stages.map(\.0) == ["droppingCompletedToolCalls", "rollingWindow", "summarizeHistory"])
    #expect(stages[1].1 == ["instructions", "P2", "R2", "P3", "T3", "c3"])
    #expect(stages[2].1 == stages[1].1)
    #expect(summarizer.behaviour.calls == 0)
  }
}
