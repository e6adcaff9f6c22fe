import ChatCompletions
import Foundation
import HistoryCompression
import LocalServerSupport
import ModelSession
import TestSupport
import Testing

/// A typed value for structured output.
private struct Trip: Generable, Equatable {
  var city: String
  var days: Int

  static var generationSchema: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Trip",
        properties: [
          .init(name: "city", schema: DynamicGenerationSchema(type: String.self)),
          .init(name: "days", schema: DynamicGenerationSchema(type: Int.self)),
        ]), dependencies: [])) ?? String.generationSchema
  }

  init(_ content: GeneratedContent) throws {
    city = try content.value(forProperty: "city")
    days = try content.value(forProperty: "days")
  }

  var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city, "days": days]) }
}

private func greedy(_ tokens: Int, tools: GenerationOptions.ToolCallingMode? = nil) -> GenerationOptions {
  GenerationOptions(sampling: .greedy, maximumResponseTokens: tokens, toolCallingMode: tools)
}

/// `ChatCompletionsLanguageModel` end to end through `LanguageModelSession`,
/// against the real llama-cpp-python server of `scripts/local-model`. The
/// server answers one request at a time, so the tests take turns (the
/// concurrency test brings its own concurrency).
@Suite(
  .serialized, .enabled(if: LocalModelServer.isAvailable, Comment(rawValue: LocalModelServer.skipNote)),
  .timeLimit(.minutes(20)), .holding(.standardWindow))
struct SessionLocalServerTests {
  let model: ChatCompletionsLanguageModel

  init() throws {
    model = ChatCompletionsLanguageModel(
      name: LocalModelServer.model, baseURL: try #require(LocalModelServer.endpoint),
      apiKey: "sk-local-unused",
      supportsGuidedGeneration: true, timeout: 300, requestStyle: .llamaCppPython)
  }

  /// How many snapshots the consumer sees depends on how fast it runs
  /// (snapshots are coalesced, newest first, as the framework does; on a
  /// loaded machine two can be all there is): that each generated piece
  /// reaches the consumer as its own snapshot is tested with a paced model in
  /// `SessionAssemblyTests`. Here: a real server's stream grows and ends in
  /// the transcript.
  @Test func `streamed text grows snapshot by snapshot and lands in the transcript`() async throws {
    let session = LanguageModelSession(model: model, instructions: "You are a helpful assistant.")
    var snapshots: [String] = []
    for try await snapshot in session.streamResponse(to: "Count from one to ten.", options: greedy(40)) {
      snapshots.append(snapshot.content)
    }
    let final = try #require(snapshots.last)
    #expect(!final.isEmpty)
    for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
      #expect(later.hasPrefix(earlier), "a snapshot is not a prefix of the next: \(earlier) → \(later)")
    }
    guard case .response(let response) = session.transcript.last else {
      Issue.record("the transcript does not end with a response")
      return
    }
    #expect(
      response.segments.contains { if case .text(let text) = $0 { text.content == final } else { false } })
    print("session stream: \(snapshots.count) snapshots, \(final.utf8.count) bytes")
  }

  @Test func `a multi-turn conversation keeps every turn`() async throws {
    let session = LanguageModelSession(model: model, instructions: "You are a helpful assistant.")
    let first = try await session.respond(to: "My name is Ada. Say hello.", options: greedy(24))
    let second = try await session.respond(to: "What is my name?", options: greedy(24))
    #expect(!first.content.isEmpty && !second.content.isEmpty)
    let kinds = session.transcript.map(\.kindName)
    #expect(kinds == ["instructions", "prompt", "response", "prompt", "response"])
    let record = try #require(session.latestGenerationRecord)
    #expect(record.sentTranscript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
  }

  @Test func `structured output is enforced by the server and decodes into a typed value`() async throws {
    let session = LanguageModelSession(model: model, instructions: "You answer in JSON.")
    let response = try await session.respond(
      to: "Plan a 3 day trip to Paris.", generating: Trip.self, options: greedy(80))
    #expect(!response.content.city.isEmpty)
    print("structured output: \(response.rawContent.jsonString)")
  }

  @Test func `a required tool call round-trips through the session's tool loop`() async throws {
    let tool = WeatherTool()
    let session = LanguageModelSession(
      model: model, tools: [tool], instructions: "You help with the weather.")
    let response = try await session.respond(
      to: "What is the weather in Paris?", options: greedy(60, tools: .required))
    #expect(tool.calls.all.count == 1)
    let kinds = session.transcript.map(\.kindName)
    #expect(kinds.prefix(4) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(kinds.last == "response")
    guard case .toolCalls(let calls) = session.transcript[2],
      case .toolOutput(let output) = session.transcript[3]
    else { return }
    #expect(calls.calls.first?.toolName == "weather")
    #expect(output.id == calls.calls.first?.id)
    print("tool loop: \(tool.calls.all), answer: \(response.content)")
  }

  @Test func `summarizeHistory uses this model as the summarizer`() async throws {
    let store = SummaryStore()
    let profile = Profile { Instructions("You are a helpful assistant.") }
      .summarizeHistory(
        threshold: .tokens(150), model: model, tokenCounter: ServerTokenCounter(model: model),
        options: .init(timeout: .seconds(120), store: store))
    let session = LanguageModelSession(model: model, profile: profile)
    for topic in ["apples", "rivers", "mountains", "violins", "bridges"] {
      try await session.respond(to: "Tell me one fact about \(topic).", options: greedy(40))
    }
    let counter = ServerTokenCounter(model: model)
    print("history tokens: \(try await counter.tokenCounts(of: session.transcript.entries))")
    let record = try #require(session.latestGenerationRecord)
    let sent = record.sentTranscript
    let summaries = sent.filter { $0.isHistorySummary }
    // The model was asked and wrote a summary (the store keeps only summaries
    // that came back).
    #expect(await store.computedCount >= 1, "the summarizer was never asked: \(record.notes)")
    #expect(await store.count >= 1, "the summarizer wrote no summary: \(record.notes)")
    // Either the model sees it, or (a small model being wordy) it was too long
    // for the threshold and the modifier said so, with its size, instead of
    // going over.
    let tooLong = record.notes.contains { $0.kind == .fallback && $0.counts[.summarySize] != nil }
    if let summary = summaries.first {
      #expect(summaries.count == 1)
      #expect(!tooLong)
      #expect(HistorySummary.summaryText(of: summary)?.isEmpty == false)
    } else {
      #expect(tooLong, "no summary in view and no note saying why: \(record.notes)")
    }
    #expect(session.transcript.filter { $0.kindName == "prompt" }.count == 5)
  }

  @Test func `cancelling mid-stream leaves the transcript unchanged`() async throws {
    let session = LanguageModelSession(model: model, instructions: "You are a helpful assistant.")
    try await session.respond(to: "Say hi.", options: greedy(8))
    let before = session.transcript
    let started = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      defer { started.continuation.finish() }
      var count = 0
      for try await _ in session.streamResponse(
        to: "Write a long story about a dragon.", options: greedy(400))
      {
        count += 1
        if count == 3 { started.continuation.yield() }
      }
      return count
    }
    // The one-request-at-a-time server may be answering other suites first.
    let arrived = await !firstElements(1, of: started.stream, within: .seconds(600)).isEmpty
    task.cancel()
    #expect(arrived, "no third snapshot within 600 s")
    // The stream either ends or throws CancellationError, depending on which
    // side of the stream sees the cancellation first.
    let result = await task.result
    if case .failure(let error) = result { #expect(error is CancellationError) }
    let snapshots = (try? result.get()).map { "\($0)" } ?? "an error after 3"
    try await waitUntilIdle(session)
    #expect(session.transcript == before)
    #expect(session.latestGenerationRecord?.outcome == .cancelled)
    print("cancelled after \(snapshots) snapshots")
  }

  @Test func `twenty sessions respond concurrently`() async throws {
    let answers = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<20 {
        group.addTask {
          let session = LanguageModelSession(model: model, instructions: "You are a helpful assistant.")
          return try await session.respond(to: "Say the number \(index).", options: greedy(6)).content
        }
      }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(answers.count == 20)
    #expect(answers.allSatisfy { !$0.isEmpty })
  }

  @Test func `the server token counter counts exactly through the server`() async throws {
    let counter = ServerTokenCounter(model: model)
    let short = try await counter.tokenCount(of: "Hello")
    let long = try await counter.tokenCount(of: String(repeating: "Hello world. ", count: 20))
    #expect(short >= 1 && short <= 3)
    #expect(long > 20 && long < 100)
    #expect(await counter.tokenizer.detectedEndpoint == .llamaCppPython)
    let entry = Transcript.Entry.prompt(.init(segments: [.text(.init(content: "Hello"))]))
    let first = try await counter.tokenCount(of: entry)
    #expect(try await counter.tokenCounts(of: [entry, entry]) == [first, first])
  }
}
