import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

/// `WordTokenCounter`'s counts, and a tokenizer whose tokens are the words of
/// a text (each word its own id), so that a common token prefix is a common
/// word prefix a test can count by hand.
private struct WordTokenizingCounter: TokenCounter, TextTokenizer {
  let counter = WordTokenCounter(toolDefinitionTokens: 100)
  /// What `tokens(of:)` answers: the words, or nothing (a server without `/tokenize`).
  var tokenizes = true

  func tokens(of text: String) -> [Int]? {
    guard tokenizes else { return nil }
    // A word's id: its bytes folded (FNV-1a), the same for the same word.
    return text.split(whereSeparator: \.isWhitespace).map { word in
      Int(word.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 })
    }
  }

  func tokenCount(of segment: Transcript.Segment) -> Int { counter.tokenCount(of: segment) }
  func tokenCount(of entry: Transcript.Entry) -> Int { counter.tokenCount(of: entry) }
  func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int { 100 }
  func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
    counter.tokenCount(of: request)
  }
  func tokenCounts(of entries: [Transcript.Entry]) -> [Int] { counter.tokenCounts(of: entries) }
}

// The tool is 100 tokens, the instructions `i0 … i9` 10, p1 20, r1 30, p2 5
// (as in `Prompt cache model, by hand`). The next request's instructions keep
// `i0 … i5` and change the last four words: `i0 i1 i2 i3 i4 i5 x6 x7 x8 x9`.
private let search = toolDefinition("search")
private let p1 = promptEntry(words(20, tag: "p"))
private let r1 = responseEntry(words(30, tag: "r"))
private let p2 = promptEntry(words(5, tag: "q"))
private let first = record(
  sent: [instructionsEntry(words(10, tag: "i"), tools: [search]), p1], tools: [search], output: [r1])
private let rewritten = record(
  sent: [instructionsEntry(words(6, tag: "i") + " x6 x7 x8 x9", tools: [search]), p1, r1, p2],
  tools: [search],
  notes: [
    GenerationNote(source: "skills", kind: .instructionsChanged, message: "", names: [.activated: ["tone"]])
  ],
  turn: 1)

private func report(
  _ records: [GenerationRecord], tokenizes: Bool = true, blockSize: Int = 1,
  granularity: ReuseGranularity = .token
) async throws -> CacheImpactReport {
  var model = try PromptCacheModel(
    blockSize: blockSize, tokenCounter: WordTokenizingCounter(tokenizes: tokenizes))
  model.granularity = granularity
  return try #require(try await CacheImpactAnalyzer.reports(for: records, model: model).last)
}

@Suite("Token-granular reuse, by hand", .timeLimit(.minutes(10))) struct ChangedBlockStartTests {
  @Test func `rewritten instructions reuse the tools and the instructions' common token prefix`() async throws
  {
    let report = try await report([first, rewritten])
    // The instructions block's text is `instructions\n` and its words: the tokenizer gives the
    // block's name (standing for a template's role framing) and i0 … i5 in common: 7 tokens.
    #expect(report.match.changedBlockStart?.tokenCount == 7)
    #expect(report.match.changedBlockStart?.isEstimate == false)
    #expect(report.match.sharedBlockCount == 1)
    #expect(report.match.sharedTokenCount == 100 + 7)
    #expect(report.reusedTokenCount == 107)
    #expect(report.reprocessedTokenCount == 165 - 107)
    // The cause stays the change.
    #expect(report.cause.kind == .instructionsChanged)
    #expect(
      report.divergence
        == CacheImpactReport.Divergence(blockIndex: 1, location: .instructions, tokenOffset: 100))
  }

  @Test func `without a tokenizer the common start is estimated from the shared bytes`() async throws {
    let report = try await report([first, rewritten], tokenizes: false)
    // After the `instructions\n` line (13 bytes), the texts share `i0 i1 i2 i3 i4 i5 ` (18 bytes)
    // of 29: 10 × 18 / 29 = 6.2, so 6 tokens.
    #expect(
      report.match.changedBlockStart
        == ChangedBlockStart(tokenCount: 6, sharedByteCount: 31, isEstimate: true))
    #expect(report.reusedTokenCount == 106)
  }

  @Test func `the shared start is rounded down with the rest to whole cache blocks`() async throws {
    // 107 shared tokens in blocks of 16: 6 whole blocks.
    #expect(try await report([first, rewritten], blockSize: 16).reusedTokenCount == 96)
    // Whole prompt blocks only: 100, 96 in blocks of 16.
    #expect(try await report([first, rewritten], granularity: .block).reusedTokenCount == 100)
    #expect(try await report([first, rewritten], blockSize: 16, granularity: .block).reusedTokenCount == 96)
    #expect(try await report([first, rewritten], granularity: .block).match.changedBlockStart == nil)
  }

  @Test func `a block that only grows reuses at most the cached block's tokens`() async throws {
    // A skill's text appended to the instructions: the tokenizer shares the block's name and all
    // 10 words (11 tokens), but the cached block held 10 tokens, so 10 are reused.
    let grown = record(
      sent: [instructionsEntry(words(10, tag: "i") + " s0 s1 s2 s3", tools: [search]), p1, r1, p2],
      tools: [search], turn: 1)
    let report = try await report([first, grown])
    #expect(report.match.changedBlockStart?.tokenCount == 10)
    #expect(report.reusedTokenCount == 110)
  }

  @Test func `blocks of two kinds share no start`() async throws {
    // The second request sends a prompt where the cached stream holds the response r1.
    let next = record(
      sent: [instructionsEntry(words(10, tag: "i"), tools: [search]), p1, promptEntry(words(30, tag: "r"))],
      tools: [search], turn: 1)
    for tokenizes in [true, false] {
      let report = try await report([first, next], tokenizes: tokenizes)
      #expect(report.match.changedBlockStart == nil)
      #expect(report.reusedTokenCount == 130)
    }
  }

  @Test func `a changed block that shares only its kind's line reuses nothing of it without a tokenizer`()
    async throws
  {
    // `prompt\n` and then other words: the estimate counts shared text only.
    let next = record(
      sent: [instructionsEntry(words(10, tag: "i"), tools: [search]), promptEntry(words(20, tag: "z"))],
      tools: [search], turn: 1)
    #expect(try await report([first, next], tokenizes: false).match.changedBlockStart == nil)
    // With the tokenizer the block's name is a shared token, as a template's framing would be.
    #expect(try await report([first, next]).match.changedBlockStart?.tokenCount == 1)
  }

  @Test func `the report's line and the table show the reused start, and an estimate as one`() async throws {
    let exact = try await report([first, rewritten])
    #expect(
      exact.description
        == "#1 turn 1.0: 107/165 reused (65%), diverged at block 1, instructions, after 100 tokens "
        + "(its first 7 tokens unchanged): instructionsChanged(skills): activated tone")
    let estimated = try await report([first, rewritten], tokenizes: false)
    #expect(estimated.match.changedBlockStart?.description == "~6 tokens (estimated)")
  }
}
