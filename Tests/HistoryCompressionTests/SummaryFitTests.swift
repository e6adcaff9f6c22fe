import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// `summarizeHistory` uses a summary only when the history it builds fits the
/// threshold: instructions, the summary, the context put back after the cut
/// and the verbatim turns. Summaries of every length from none to far too
/// long are tried; whatever the modifier chooses, the result must fit.
@Suite("Summary fit with context put back", .timeLimit(.minutes(10))) struct SummaryFitTests {
  /// A skill body (40 bytes) delivered in the first turn: a call and its output, marked
  /// as retained context, so a cut before it puts a copy back.
  private let delivery: [Transcript.Entry] =
    [Make.prompt("p1")]
    + retainedDelivery(
      callsID: "calls-style", callID: "call-style",
      body: .text(.init(id: "body", content: String(repeating: "b", count: 40)))) + [Make.response("r1")]

  private func tokens(_ transcript: Transcript, _ counter: EstimatingTokenCounter) -> Int {
    var total = 0
    for entry in transcript { total += counter.tokenCount(of: entry) }
    return total
  }

  @Test func `every summary length gives a history within the threshold, the put-back body counted`()
    async throws
  {
    let counter = EstimatingTokenCounter()
    let history = Transcript(
      entries: [Make.instructions()] + delivery + (2..<24).flatMap(Make.turn) + [Make.prompt("p24")])
    let threshold = 300
    #expect(tokens(history, counter) > threshold)
    var summarized = 0
    var fellBack = 0
    for length in stride(from: 0, through: 1_200, by: 4) {
      let summarizer = ScriptedLanguageModel(
        script: ModelScript([.text(String(repeating: "s", count: length))]))
      let modifier = SummarizeHistory(
        threshold: .tokens(threshold), model: summarizer,
        options: .init(retainedFraction: 0.5, tokenCounter: counter, store: SummaryStore()))
      let result = try await modifier.transformHistory(history, in: Make.context())
      let size = tokens(result, counter)
      #expect(size <= threshold, "a summary of \(length) bytes: \(size) tokens, \(result.map(\.id))")
      if result.contains(where: \.isHistorySummary) {
        summarized += 1
        #expect(
          result.contains { $0.retainedContextKey == "skill:style" }, "\(length) bytes: the body is not back")
      } else {
        fellBack += 1
      }
    }
    // Both outcomes are reached: short summaries are used, long ones are not.
    #expect(summarized > 0)
    #expect(fellBack > 0)
  }
}
