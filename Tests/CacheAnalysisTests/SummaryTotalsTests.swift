import CacheAnalysis
import Foundation
import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct `Cache impact summary totals` {
  @Test func `the peak is the largest prompt, not the last one, and the totals add every generation`()
    async throws
  {
    // Word counts (one token a word): 10, then 10 + 5 + 15 = 30, then a compacted 10 + 8 = 18.
    let instructions = instructionsEntry(words(10, tag: "i"))
    let first = promptEntry(words(5, tag: "a"))
    let records = [
      record(sent: [instructions]),
      record(sent: [instructions, first, promptEntry(words(15, tag: "b"))]),
      record(sent: [instructions, promptEntry(words(8, tag: "c"))]),
    ]
    let summary = CacheImpactSummary(reports: try await reports(records))
    #expect(summary.generationCount == 3)
    #expect(summary.peakPromptTokenCount == 30)
    #expect(summary.promptTokenCount == 10 + 30 + 18)
  }
}

@Suite(.timeLimit(.minutes(10))) struct `A response schema outside the prompt` {
  /// Two generations: plain, then with a schema (sent in the prompt or not) and other instructions.
  private func secondCause(schemaInPrompt: Bool) async throws -> CacheImpactCause.Kind? {
    let plain = record(sent: [instructionsEntry("You count."), promptEntry("one")])
    var guided = record(
      sent: [
        instructionsEntry("You count carefully."), promptEntry("one"), responseEntry("1"), promptEntry("two"),
      ],
      turn: 1)
    guided.schema = Int.generationSchema
    guided.contextOptions = ContextOptions(includeSchemaInPrompt: schemaInPrompt)
    return try await reports([plain, guided]).last?.cause.kind
  }

  @Test func `is not blamed for a divergence: the instructions that changed are`() async throws {
    // The server reads the schema before the instructions, so when it is in the prompt it is
    // the first difference; when it is not, the instructions are.
    #expect(try await secondCause(schemaInPrompt: true) == .responseSchemaChanged)
    #expect(try await secondCause(schemaInPrompt: false) == .instructionsChanged)
  }
}

@Suite(.timeLimit(.minutes(10))) struct `Server usage in reports` {
  @Test func `a record without a reported prompt count has no server usage; one with a count has it`()
    async throws
  {
    let sent = [instructionsEntry("You help."), promptEntry("one")]
    let unreported = record(sent: sent)
    var reported = record(sent: sent + [responseEntry("1"), promptEntry("two")], turn: 1)
    reported.usage = GenerationUsage(input: .init(totalTokenCount: 9, reportedCachedTokenCount: 3))
    let analyzed = try await reports([unreported, reported])
    #expect(analyzed[0].serverUsage == nil)
    #expect(analyzed[1].serverUsage == CacheImpactReport.ServerUsage(totalTokenCount: 9, cachedTokenCount: 3))
  }
}
