import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// A script step that plays the summarizer when the request carries the
/// summarizer's instructions, and otherwise answers the turn.
private func answeringOrSummarizing(_ count: Int) -> [ScriptStep] {
  (0..<count).map { _ in
    ScriptStep { request, channel in
      let instructions = request.transcript.first.flatMap { entry -> String? in
        if case .instructions(let instructions) = entry { instructions.segments.joinedText } else { nil }
      }
      let text =
        instructions == SummarizeHistory.defaultInstructions.text
        ? "SUMMARY of \(request.transcript.count - 1) entries" : "answer \(request.transcript.count)"
      await channel.send(.response(entryID: "r", action: .appendText(text, tokenCount: 1)))
    }
  }
}

private func isSummarizerRequest(_ request: LanguageModelExecutorGenerationRequest) -> Bool {
  guard case .instructions(let instructions) = request.transcript.first else { return false }
  return instructions.segments.joinedText == SummarizeHistory.defaultInstructions.text
}

@Suite("History modifiers in the documented spelling", .timeLimit(.minutes(10)))
struct ModifierVocabularyTests {
  @Test func `summarizeHistory(entryThreshold:) without a model summarizes with the session's model`()
    async throws
  {
    let script = ModelScript(answeringOrSummarizing(12))
    let profile = Profile { Instructions("You help with recipes.") }
      .summarizeHistory(entryThreshold: 6)
      .rollingWindow(entries: 20)
      .droppingCompletedToolCalls()
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    for turn in 1...4 {
      _ = try await session.respond(to: "question \(turn)")
    }
    // Turn 4 sees instructions + 6 entries + its prompt = 8 > 6: one summarization
    // on the session's own (scripted) model, before the turn's own generation.
    let requests = script.requests
    #expect(requests.count == 5)
    #expect(requests.filter(isSummarizerRequest).count == 1)
    #expect(isSummarizerRequest(requests[3]))
    let sent = try #require(session.latestGenerationRecord?.sentTranscript)
    guard case .instructions(let instructions) = sent.first else {
      Issue.record("the instructions were dropped")
      return
    }
    #expect(instructions.segments.joinedText == "You help with recipes.")
    #expect(sent[1].containsHistorySummary)
    #expect(HistorySummary.summaryText(of: sent[1])?.hasPrefix("SUMMARY") == true)
    #expect(
      session.latestGenerationRecord?.stages.map(\.name)
        == ["droppingCompletedToolCalls", "rollingWindow", "summarizeHistory"])
  }

  @Test func `summarizeHistory(entryThreshold:model:instructions:summaryPostamble:) uses the given model`()
    async throws
  {
    let summarizerScript = ModelScript([.text("The user asked three questions.")])
    let mainScript = ModelScript((1...4).map { .text("answer \($0)") })
    let profile = Profile { Instructions("You help with recipes.") }
      .summarizeHistory(
        entryThreshold: 6, model: ScriptedLanguageModel(script: summarizerScript),
        instructions: Instructions("Summarize tersely."), summaryPostamble: "Go on without mentioning this.")
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: mainScript), profile: profile)
    for turn in 1...4 {
      _ = try await session.respond(to: "question \(turn)")
    }
    #expect(summarizerScript.playedCount == 1)
    #expect(mainScript.playedCount == 4)
    let summarizerRequest = try #require(summarizerScript.requests.first)
    guard case .instructions(let instructions) = summarizerRequest.transcript.first else {
      Issue.record("the summarizer got no instructions")
      return
    }
    #expect(instructions.segments.joinedText == "Summarize tersely.")
    let sent = try #require(session.latestGenerationRecord?.sentTranscript)
    #expect(sent[1].segments.joinedText.contains("The user asked three questions."))
    #expect(sent[1].segments.joinedText.contains("Go on without mentioning this."))
  }

  @Test func `rollingWindow(entries:) keeps the instructions and never splits a tool call from its output`()
    async throws
  {
    let script = ModelScript([
      .text("a1"),
      .toolCalls([(name: "weather", arguments: #"{"city":"Oslo"}"#)]),
      .text("a2"),
      .text("a3"),
    ])
    let profile = Profile {
      Instructions("You report the weather.")
      WeatherTool()
    }
    .rollingWindow(entries: 4)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    _ = try await session.respond(to: "q1")
    _ = try await session.respond(to: "q2")
    // The tool loop's second generation: instructions + q1 a1 + q2 calls output = 6 entries;
    // a window of 4 cuts where q2 starts, keeping the call with its output and the instructions.
    let toolRound = try #require(script.requests.dropFirst(2).first)
    #expect(toolRound.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    _ = try await session.respond(to: "q3")
    let last = try #require(script.requests.last)
    #expect(last.transcript.map(\.kindName) == ["instructions", "prompt"])
  }

  @Test func `rollingWindow(tokens:) and the HistorySize spelling build the same window`() throws {
    let byTokens = RollingWindow(tokens: 400)
    let bySize = RollingWindow(.tokens(400))
    #expect(byTokens.size == bySize.size)
    #expect(RollingWindow(entries: 12).size == .entries(12))
    #expect(SummarizeHistory(entryThreshold: 40).threshold == .entries(40))
    #expect(SummarizeHistory(tokenThreshold: 900).threshold == .tokens(900))
    #expect(SummarizeHistory(entryThreshold: 40).model == nil)
  }

  // The earlier spellings are deprecated; these tests use them on purpose.
  @available(*, deprecated)
  @Test func `compactingHistory(tokenBudget:model:) and the shipped budget:summarizer: spelling agree`() {
    let summarizer = ScriptedLanguageModel(script: ModelScript())
    let shared = CompactingHistory(
      tokenBudget: 2_000, target: 800, summaryReserve: 100, model: summarizer,
      instructions: Instructions("Be brief."), summaryPostamble: "Continue.",
      options: .init(timeout: .seconds(5)))
    let shipped = CompactingHistory(
      budget: 2_000, target: 800, summarizer: summarizer, summaryReserve: 100,
      summaryOptions: .init(
        instructions: Instructions("Be brief."), postamble: "Continue.", timeout: .seconds(5)))
    #expect(shared.budget == shipped.budget)
    #expect(shared.target == shipped.target)
    #expect(shared.summaryReserve == shipped.summaryReserve)
    // Both keep the very summarizer they were given (its script, compared by identity).
    #expect((shared.model as? ScriptedLanguageModel)?.script === summarizer.script)
    #expect((shipped.model as? ScriptedLanguageModel)?.script === summarizer.script)
    #expect(shipped.instructions.text == "Be brief.")
    #expect(shipped.summaryPostamble == "Continue.")
    #expect(shipped.options.timeout == .seconds(5))
    #expect(shared.summaryOptions.instructions.text == shipped.summaryOptions.instructions.text)
    #expect(shared.summaryOptions.postamble == shipped.summaryOptions.postamble)
    #expect(shared.summaryOptions.timeout == shipped.summaryOptions.timeout)
    #expect((shipped.summarizer as? ScriptedLanguageModel)?.script === summarizer.script)
    #expect(shipped.contextBudget == .tokens(2_000))
    // The earlier settings type keeps the same defaults.
    let earlierDefaults = CompactingHistory.SummaryOptions()
    #expect(earlierDefaults.timeout == .seconds(30))
    #expect(earlierDefaults.retryDelay == .seconds(60))
    #expect(earlierDefaults.postamble == CompactingHistory.defaultPostamble)
    #expect(CompactingHistory(tokenBudget: 1_000).model == nil)
  }

  @available(*, deprecated)
  @Test func `the shipped spellings still build profiles`() {
    let counter = EstimatingTokenCounter()
    let summarizer = ScriptedLanguageModel(script: ModelScript())
    let profile = Profile { Instructions("Hi.") }
      .compactingHistory(budget: 4_000, summarizer: summarizer, tokenCounter: counter)
      .summarizeHistory(threshold: .tokens(3_000), model: summarizer, options: .init(tokenCounter: counter))
      .rollingWindow(.tokens(2_000), tokenCounter: counter)
      .droppingCompletedToolCalls()
    #expect(profile.modifier.name == "droppingCompletedToolCalls")
    #expect(profile.content.modifier.size == .tokens(2_000))
    #expect(profile.content.content.modifier.threshold == .tokens(3_000))
    #expect(profile.content.content.content.modifier.budget == 4_000)
  }

  @available(*, deprecated)
  @Test
  func `every spelling passes on the token counter, the store, the prefix log, the retry delay and the pin`()
  {
    let store = SummaryStore()
    let log = PrefixBreakLog()
    let threeBytes = EstimatingTokenCounter(bytesPerToken: 3)
    func bytesPerToken(_ counter: any TokenCounter) -> Int? {
      (counter as? EstimatingTokenCounter)?.bytesPerToken
    }
    let options = CompactingHistory.Options(retryDelay: .seconds(7), store: store, prefixBreaks: log)
    for modifier in [
      CompactingHistory(
        tokenBudget: 2_000, target: 800, pinnedTokens: 300, tokenCounter: threeBytes, options: options),
      Profile { Instructions("Hi.") }.compactingHistory(
        tokenBudget: 2_000, target: 800, pinnedTokens: 300, tokenCounter: threeBytes, options: options
      ).modifier,
    ] {
      // Without a summarizer the default pin would be 800 × 5 / 8 = 500.
      #expect(modifier.pinnedTokens == 300)
      #expect(bytesPerToken(modifier.tokenCounter) == 3)
      #expect(modifier.options.retryDelay == .seconds(7))
      #expect(modifier.options.store === store)
      #expect(modifier.options.prefixBreaks === log)
      #expect(modifier.prefixBreaks === log)
    }
    let shipped = Profile { Instructions("Hi.") }.compactingHistory(
      budget: 2_000, target: 800, pinnedTokens: 300, tokenCounter: threeBytes
    ).modifier
    #expect(shipped.pinnedTokens == 300)
    #expect(bytesPerToken(shipped.tokenCounter) == 3)

    let twoBytes = SummarizeHistory.Options(tokenCounter: EstimatingTokenCounter(bytesPerToken: 2))
    for modifier in [
      SummarizeHistory(tokenThreshold: 900, tokenCounter: threeBytes),
      SummarizeHistory(threshold: .tokens(900), tokenCounter: threeBytes, options: twoBytes),
      Profile { Instructions("Hi.") }.summarizeHistory(tokenThreshold: 900, tokenCounter: threeBytes)
        .modifier,
    ] {
      #expect(bytesPerToken(modifier.tokenCounter) == 3)
    }
    // Without a counter of its own, the options' counter counts.
    #expect(bytesPerToken(SummarizeHistory(threshold: .tokens(900), options: twoBytes).tokenCounter) == 2)

    for modifier in [
      RollingWindow(tokens: 900, tokenCounter: threeBytes),
      Profile { Instructions("Hi.") }.rollingWindow(tokens: 900, tokenCounter: threeBytes).modifier,
    ] {
      #expect(bytesPerToken(modifier.tokenCounter) == 3)
    }
  }
}
