import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ServerReuseComparisonTests {
  /// The comparison's branches, from hand-made inputs.
  @Suite("Predicted against reported reuse") struct Causes {
    private func cause(
      predicted: Int, reported: Int, prompt: Int = 1_000, serverPrompt: Int = 1_000, offset: Int? = nil,
      block: Int = 0, elapsed: Double? = nil, timeToLive: Double? = nil
    ) -> ServerReuseComparison.Cause {
      ServerReuseComparison.compare(
        .init(
          predictedTokenCount: predicted, reportedTokenCount: reported, predictedPromptTokenCount: prompt,
          reportedPromptTokenCount: serverPrompt, divergenceTokenOffset: offset,
          divergingBlockTokenCount: block,
          secondsSincePrevious: elapsed, timeToLive: timeToLive, tolerance: 16)
      ).cause
    }

    @Test func `a difference within the tolerance agrees`() {
      #expect(cause(predicted: 800, reported: 816) == .agrees)
      #expect(cause(predicted: 800, reported: 784) == .agrees)
      #expect(cause(predicted: 800, reported: 783) != .agrees)
    }

    @Test func `a server that counts more tokens in its prompt explains the same difference`() {
      #expect(cause(predicted: 800, reported: 900, serverPrompt: 1_100) == .countingDifference)
      #expect(cause(predicted: 800, reported: 700, serverPrompt: 900) == .countingDifference)
      // The prompt sizes differ the other way: not a counting difference.
      #expect(cause(predicted: 800, reported: 900, serverPrompt: 900) != .countingDifference)
    }

    @Test func `less reused: expired, cleared, or a shorter prefix`() {
      #expect(cause(predicted: 800, reported: 0, elapsed: 600, timeToLive: 300) == .expired)
      #expect(cause(predicted: 800, reported: 0, elapsed: 60, timeToLive: 300) == .cacheCleared)
      #expect(cause(predicted: 800, reported: 10) == .cacheCleared)
      #expect(cause(predicted: 800, reported: 400) == .shorterPrefix)
    }

    @Test func `more reused: the start of the changed block, or several prefixes kept`() {
      #expect(cause(predicted: 400, reported: 450, offset: 400, block: 100) == .sharedBlockStart)
      #expect(cause(predicted: 400, reported: 900, offset: 400, block: 100) == .severalPrefixes)
      #expect(cause(predicted: 400, reported: 900) == .severalPrefixes)
    }

    @Test func `each limit of the comparison is inclusive, one token or second past it is the next cause`() {
      // A counting difference: same sign and |difference| ≤ |size difference| + tolerance:
      // 916 - 800 = 116 ≤ 100 + 16; 917 is one past, more reused with no divergence known.
      #expect(cause(predicted: 800, reported: 916, serverPrompt: 1_100) == .countingDifference)
      #expect(cause(predicted: 800, reported: 917, serverPrompt: 1_100) == .severalPrefixes)
      // Expired: more time than the time to live; exactly the time to live is not.
      #expect(cause(predicted: 800, reported: 0, elapsed: 300, timeToLive: 300) == .cacheCleared)
      #expect(cause(predicted: 800, reported: 0, elapsed: 300.5, timeToLive: 300) == .expired)
      // Cleared: the server reused no more than the tolerance (16).
      #expect(cause(predicted: 800, reported: 16) == .cacheCleared)
      #expect(cause(predicted: 800, reported: 17) == .shorterPrefix)
      // The start of the changed block: up to offset + block + tolerance = 400 + 100 + 16 = 516.
      #expect(cause(predicted: 400, reported: 516, offset: 400, block: 100) == .sharedBlockStart)
      #expect(cause(predicted: 400, reported: 517, offset: 400, block: 100) == .severalPrefixes)
    }

    @Test func `the difference is the server's figure minus the prediction`() {
      let comparison = ServerReuseComparison.compare(
        .init(
          predictedTokenCount: 900, reportedTokenCount: 812, predictedPromptTokenCount: 1_000,
          reportedPromptTokenCount: 1_000, tolerance: 16))
      #expect(comparison.difference == -88)
      #expect(comparison.description == "reported 812, predicted 900 (-88): shorterPrefix")
    }

    @Test func `counts at the ends of Int compare without a trap, by the sign of their saturated difference`()
    {
      // `abs(reported - predicted)` trapped for these before.
      #expect(cause(predicted: 0, reported: .max, prompt: 0, serverPrompt: .min) == .severalPrefixes)
      #expect(cause(predicted: .max, reported: .min, prompt: .min, serverPrompt: .max) == .cacheCleared)
      #expect(cause(predicted: .min, reported: .max, prompt: .min, serverPrompt: .max) == .countingDifference)
      #expect(cause(predicted: 400, reported: .max, offset: .max, block: .max) == .sharedBlockStart)
      let comparison = ServerReuseComparison.compare(
        .init(
          predictedTokenCount: .min, reportedTokenCount: .max, predictedPromptTokenCount: 0,
          reportedPromptTokenCount: 0, tolerance: 16))
      #expect(comparison.difference == .max)
    }
  }

  /// Server-reported usage through a real session: reported counts are
  /// compared, unknown ones are left out (never counted as misses).
  @Suite("Server-reported reuse in reports") struct InReports {
    private func answer(_ text: String, prompt: Int, cached: Int?) -> ScriptStep {
      .events([
        .response(entryID: "r-\(text)", action: .appendText(text, tokenCount: 2)),
        .response(
          entryID: "r-\(text)",
          action: .updateUsage(
            input: .init(totalTokenCount: prompt, reportedCachedTokenCount: cached),
            output: .init(totalTokenCount: 2))
        ),
      ])
    }

    @Test func `a server that lost its cache is told apart from one that said nothing`() async throws {
      let long = String(repeating: "Answer questions about the weather in detail. ", count: 20)
      let script = ModelScript([
        answer("One.", prompt: 300, cached: 0), answer("Two.", prompt: 320, cached: 0),
        answer("Three.", prompt: 340, cached: nil),
      ])
      let run = try await observedRun(
        profile: Profile { Instructions(long) }, script: script, prompts: ["a", "b", "c"])
      try #require(run.reports.count == 3)
      // The first generation: nothing cached, nothing predicted, nothing reported.
      #expect(run.reports[0].serverComparison?.cause == .agrees)
      // The second extends the first: the model predicts the whole previous
      // stream (instructions of about 230 tokens), the server reported none.
      let second = try #require(run.reports[1].serverComparison)
      #expect(run.reports[1].reusedTokenCount > 200)
      #expect(second.cause == .cacheCleared)
      #expect(second.difference == -run.reports[1].reusedTokenCount)
      // The third said nothing: unknown, not compared.
      #expect(run.reports[2].serverUsage?.cachedTokenCount == nil)
      #expect(run.reports[2].serverComparison == nil)
      let summary = CacheImpactSummary(reports: run.reports)
      #expect(summary.serverReportedGenerationCount == 2)
      #expect(summary.serverCachedInputTokenCount == 0)
      #expect(summary.serverInputTokenCount == 620)
      #expect(summary.serverComparisonCauses == ["agrees": 1, "cacheCleared": 1])
      #expect(run.reports[1].description.contains("[server: 0/320 cached"))
      #expect(run.reports[2].description.hasSuffix("[server: unknown/340 cached]"))
    }
  }

  @Suite("Server reuse in saved records") struct InSavedRecords {
    @Test func `saved records are expired or cleared by the time between their dates`() async throws {
      // The second generation extends the first; the server reported nothing cached for it.
      let instructions = instructionsEntry(words(40))
      let first = record(sent: [instructions, promptEntry("a")], output: [responseEntry("one")])
      func second(at seconds: Double) -> GenerationRecord {
        var next = record(
          sent: [instructions, promptEntry("a"), responseEntry("one"), promptEntry("b")], turn: 1)
        next.date = Date(timeIntervalSince1970: seconds)
        next.usage = GenerationUsage(input: .init(totalTokenCount: 44, reportedCachedTokenCount: 0))
        return next
      }
      var model = try PromptCacheModel(
        blockSize: 1, minimumCacheableTokens: 0, lookback: 1,
        tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
      model.timeToLive = .seconds(300)
      // 600 s after the first (dated 0): past the 300 s the cache keeps a prefix.
      let late = try await CacheImpactAnalyzer.reports(for: [first, second(at: 600)], model: model)
      #expect(late[1].serverComparison?.cause == .expired)
      // 100 s after: within it, so the cache was cleared.
      let soon = try await CacheImpactAnalyzer.reports(for: [first, second(at: 100)], model: model)
      #expect(soon[1].serverComparison?.cause == .cacheCleared)
    }
  }
}
