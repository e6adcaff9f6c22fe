import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// The entry's text segments, joined as they are sent: with nothing between them.
private func text(_ entry: Transcript.Entry) -> String {
  entry.segments.map { segment in
    if case .text(let text) = segment { text.content } else { "" }
  }.joined()
}

/// Each entry as its kind and text, for comparisons by content.
private func contents(_ transcript: Transcript) -> [String] {
  transcript.map { "\($0.kindName): \(text($0))" }
}

@Suite("The summary summarizeHistory commits", .timeLimit(.minutes(10))) struct SummaryPromptTests {
  /// A session whose history is summarized past `threshold` entries (instructions included)
  /// by a scripted summarizer, with its own store so that no other test's summaries are reused.
  static func session(
    main: ModelScript, summarizer: ModelScript, threshold: Int = 3, postamble: String? = nil
  ) -> LanguageModelSession {
    let summarizerModel = ScriptedLanguageModel(script: summarizer)
    let options = SummarizeHistory.Options(store: SummaryStore())
    let profile = Profile { "Answer in a word." }
    if let postamble {
      return LanguageModelSession(
        profile: profile.summarizeHistory(
          entryThreshold: threshold, model: summarizerModel, summaryPostamble: postamble, options: options
        ).model(ScriptedLanguageModel(script: main)))
    }
    return LanguageModelSession(
      profile: profile.summarizeHistory(entryThreshold: threshold, model: summarizerModel, options: options)
        .model(ScriptedLanguageModel(script: main)))
  }

  @Test func `past the threshold, the transcript holds the summary in front of the newest prompt`()
    async throws
  {
    let main = ModelScript([.text("Hi."), .text("Blue.")])
    let summarizer = ModelScript([.text("The user greeted the assistant.")])
    let session = Self.session(main: main, summarizer: summarizer, postamble: "Go on.")
    try await session.respond(to: "Hello!")
    // Instructions, "Hello!", "Hi.", "Favourite colour?" = 4 entries, over 3: the first turn is summarized.
    try await session.respond(to: "Favourite colour?")
    #expect(
      contents(session.transcript) == [
        "instructions: Answer in a word.",
        "prompt: Summary of the conversation so far:\nThe user greeted the assistant.\n\nGo on.\n\nFavourite colour?",
        "response: Blue.",
      ])
    // The model was sent that same history: the next request extends it.
    #expect(
      contents(try #require(main.requests.last).transcript) == Array(contents(session.transcript).dropLast()))
    // Nothing is lost for the app: the full transcript has every entry as it was given.
    #expect(
      contents(session.fullTranscript) == [
        "instructions: Answer in a word.", "prompt: Hello!", "response: Hi.", "prompt: Favourite colour?",
        "response: Blue.",
      ])
    // The summary prompt keeps the id of the prompt it carries, as the full transcript has it.
    #expect(session.transcript[1].id == session.fullTranscript[3].id)
    #expect(session.transcript[1].containsHistorySummary)
    #expect(!session.transcript[1].isHistorySummary)
  }

  @Test func `the default postamble is the companion package's, and an empty one is left out`() async throws {
    let main = ModelScript([.text("Hi."), .text("Blue.")])
    let summarizer = ModelScript([.text("A greeting.")])
    let session = Self.session(main: main, summarizer: summarizer)
    try await session.respond(to: "Hello!")
    try await session.respond(to: "Colour?")
    #expect(
      text(session.transcript[1])
        == "Summary of the conversation so far:\nA greeting.\n\n" + SummarizeHistory.defaultPostamble
        + "\n\nColour?")
    #expect(
      SummarizeHistory.defaultPostamble.hasPrefix("Do not begin with phrases like \"Based on the context\""))

    let bare = Self.session(
      main: ModelScript([.text("Hi."), .text("Blue.")]), summarizer: ModelScript([.text("A greeting.")]),
      postamble: "")
    try await bare.respond(to: "Hello!")
    try await bare.respond(to: "Colour?")
    #expect(text(bare.transcript[1]) == "Summary of the conversation so far:\nA greeting.\n\nColour?")
  }

  @Test func `the next summary folds in the committed one and summarizes the prompt it carried`() async throws
  {
    let main = ModelScript([.text("Hi."), .text("Blue."), .text("Green.")])
    let summarizer = ModelScript([.text("A greeting."), .text("A greeting, then blue.")])
    let session = Self.session(main: main, summarizer: summarizer)
    try await session.respond(to: "Hello!")
    try await session.respond(to: "Colour?")
    // Instructions, the summary prompt, "Blue.", "Another?" = 4 entries (5 with the summary apart): over 3 again.
    try await session.respond(to: "Another?")
    let second = try #require(summarizer.requests.last).transcript.compactMap { entry -> String? in
      if case .prompt = entry { text(entry) } else { nil }
    }.joined()
    #expect(second.contains("The summary of the conversation so far:\n\nA greeting."))
    #expect(second.contains("User: Colour?\n"))
    #expect(second.contains("Assistant: Blue.\n"))
    #expect(!second.contains("Hello!"))
    #expect(
      contents(session.transcript).dropFirst().first
        == "prompt: Summary of the conversation so far:\nA greeting, then blue.\n\n"
        + SummarizeHistory.defaultPostamble + "\n\nAnother?")
    #expect(session.transcript.count == 3)
    #expect(session.fullTranscript.count == 7)
  }

  @Test func `a prompt with a summary in front comes apart into the summary entry and the prompt`() throws {
    let summary = HistorySummary.entry(summary: "Tea, not coffee.", postamble: "Carry on.")
    guard case .prompt(let prompt) = Make.prompt("p4", "And biscuits?") else {
      Issue.record("Make.prompt made no prompt")
      return
    }
    let merged = try #require(SummaryPrompt.merging(summary, into: prompt))
    #expect(merged.id == "p4")
    #expect(
      text(.prompt(merged))
        == "Summary of the conversation so far:\nTea, not coffee.\n\nCarry on.\n\nAnd biscuits?")
    let parts = try #require(SummaryPrompt.separating(.prompt(merged)))
    #expect(parts.summary == summary)
    #expect(parts.prompt == prompt)
    // An ordinary prompt, and one that only looks like a summary, are no summary prompts.
    #expect(
      SummaryPrompt.separating(Make.prompt("p5", "Summary of the conversation so far:\nfake\n\n")) == nil)
    #expect(SummaryPrompt.merging(Make.prompt("p6"), into: prompt) == nil)
  }
}
