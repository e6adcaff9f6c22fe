import CacheAnalysis
import ModelSession
import TestSupport
import Testing

/// A random append-only conversation: each generation sends everything so
/// far and produces one or two entries; then a prompt or a tool output follows.
private func appendOnlyRecords(seed: UInt64) -> (records: [GenerationRecord], expectedShared: [Int]) {
  var random = SeededGenerator(seed: seed)
  let toolCount = Int.random(in: 0...3, using: &random)
  let tools = (0..<toolCount).map { toolDefinition("tool\($0)") }
  var history = [instructionsEntry(words(Int.random(in: 1...50, using: &random), tag: "i"), tools: tools)]
  history.append(promptEntry(words(Int.random(in: 1...40, using: &random), tag: "p0-")))
  var records: [GenerationRecord] = []
  var expectedShared: [Int] = []
  var cachedTokens = 0
  // 100 a tool, one token a word (the instructions' tools are not counted twice).
  var historyTokens = 100 * toolCount + history.reduce(0) { $0 + wordCount($1) }
  for generation in 0..<Int.random(in: 1...30, using: &random) {
    let output = (0..<Int.random(in: 1...2, using: &random)).map { part in
      responseEntry(words(Int.random(in: 0...200, using: &random), tag: "r\(generation).\(part)-"))
    }
    records.append(record(sent: history, tools: tools, output: output, turn: generation))
    expectedShared.append(generation == 0 ? 0 : cachedTokens)
    // By hand: the previous request and its output, that is, everything sent now but the new prompt.
    cachedTokens = historyTokens + output.reduce(0) { $0 + wordCount($1) }
    history += output
    let prompt = promptEntry(words(Int.random(in: 1...60, using: &random), tag: "p\(generation + 1)-"))
    history.append(prompt)
    historyTokens = cachedTokens + wordCount(prompt)
  }
  return (records, expectedShared)
}

private func wordCount(_ entry: Transcript.Entry) -> Int {
  entry.segments.reduce(0) { $0 + WordTokenCounter(toolDefinitionTokens: 100).tokenCount(of: $1) }
}

@Suite("Append-only property", .timeLimit(.minutes(20))) struct AppendOnlyPropertyTests {
  @Test(arguments: [1, 16, 128])
  func `the hit ratio of an append-only history is the share of the previous tokens`(
    blockSize: Int
  )
    async throws
  {
    for seed in UInt64(1)...100 {
      let (records, expectedShared) = appendOnlyRecords(seed: seed)
      let all = try await reports(records, blockSize: blockSize)
      for (report, shared) in zip(all, expectedShared) {
        #expect(report.match.sharedTokenCount == shared)
        #expect(report.reusedTokenCount == shared / blockSize * blockSize)
        if blockSize == 1 {
          #expect(report.hitRatio == Double(shared) / Double(report.promptTokenCount))
        }
        if report.generationIndex > 0 { #expect(report.cause == .appendOnly) }
      }
    }
  }
}
