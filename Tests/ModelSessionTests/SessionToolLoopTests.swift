import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Session tool loop", .timeLimit(.minutes(10))) struct SessionToolLoopTests {
  @Test func `the loop stops with a clear error at the round cap and keeps the transcript`() async throws {
    let steps = (0..<4).map { _ in ScriptStep.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#) }
    let script = ModelScript(steps)
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { WeatherTool() }, maximumToolRounds: 3)
    await #expect(throws: LanguageModelSession.SessionError.toolRoundLimitExceeded(limit: 3)) {
      try await session.respond(to: "Loop forever")
    }
    #expect(script.playedCount == 4)
    #expect(session.transcript.isEmpty)
    #expect(!session.isResponding)
  }

  @Test func `exactly the round cap of tool rounds, then an answer, completes the turn`() async throws {
    let script = ModelScript([
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .toolCall(name: "weather", arguments: #"{"city":"Bergen"}"#), .text("Both sunny."),
    ])
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { weather }, maximumToolRounds: 2)
    let response = try await session.respond(to: "Weather?")
    #expect(response.content == "Both sunny.")
    #expect(weather.calls.all == ["Oslo", "Bergen"])
  }

  @Test func `a session allows 16 tool rounds a turn by default, however it is made`() {
    let model = ScriptedLanguageModel(script: ModelScript([]))
    #expect(LanguageModelSession(model: model, profile: Profile { WeatherTool() }).maximumToolRounds == 16)
    #expect(LanguageModelSession(model: model, tools: [WeatherTool()]).maximumToolRounds == 16)
    #expect(LanguageModelSession(model: model, instructions: "Be brief.").maximumToolRounds == 16)
    #expect(LanguageModelSession(model: model, transcript: Transcript()).maximumToolRounds == 16)
    #expect(LanguageModelSession(model: model, tools: [], maximumToolRounds: 3).maximumToolRounds == 3)
  }

  @Test(arguments: [0, -5])
  func `a round cap below 1 is raised to 1`(cap: Int) async throws {
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Sunny.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { WeatherTool() }, maximumToolRounds: cap
    )
    #expect(session.maximumToolRounds == 1)
    let response = try await session.respond(to: "Weather?")
    #expect(response.content == "Sunny.")
    // A second round in the next turn is one past the cap of 1.
    script.append(
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#))
    await #expect(throws: LanguageModelSession.SessionError.toolRoundLimitExceeded(limit: 1)) {
      try await session.respond(to: "Again?")
    }
  }

  @Test func `required tool calling holds for the first round of a turn, later rounds are allowed`()
    async throws
  {
    let script = ModelScript([
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .toolCall(name: "weather", arguments: #"{"city":"Bergen"}"#), .text("Both sunny."), .text("Yes."),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { WeatherTool() })
    let required = GenerationOptions(toolCallingMode: .required)
    try await session.respond(to: "Weather?", options: required)
    try await session.respond(to: "Sure?", options: required)
    #expect(
      script.requests.map(\.generationOptions.toolCallingMode) == [.required, .allowed, .allowed, .required])
    let disallowed = GenerationOptions(toolCallingMode: .disallowed)
    script.append(.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Done."))
    try await session.respond(to: "Once more.", options: disallowed)
    #expect(script.requests.suffix(2).map(\.generationOptions.toolCallingMode) == [.disallowed, .disallowed])
  }

  @Test func `arguments that are empty or only white space are an empty object, and the tool runs`()
    async throws
  {
    let clock = ClockTool()
    let script = ModelScript([
      .toolCall(name: "clock", arguments: " \n\t"), .toolCall(name: "clock", arguments: ""), .text("Noon."),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { clock })
    try await session.respond(to: "Time?")
    #expect(clock.calls.all == ["{}", "{}"])
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == ["It is noon.", "It is noon."])
    // The stored calls hold the same empty object the tool ran with, not the white space as text.
    let stored = session.transcript.compactMap { entry -> String? in
      if case .toolCalls(let calls) = entry { calls.first?.arguments.jsonString } else { nil }
    }
    #expect(stored == ["{}", "{}"])
  }

  @Test func `a call to an unknown tool is answered to the model, which corrects itself`() async throws {
    let script = ModelScript([
      .toolCall(name: "wether", arguments: #"{"city":"Oslo"}"#),
      .inspecting(
        { request in
          guard case .toolOutput(let output) = request.transcript.last else {
            throw ExpectationFailure("no output")
          }
          guard output.segments.joinedText.contains("no tool named \"wether\""),
            output.segments.joinedText.contains("weather")
          else { throw ExpectationFailure(output.segments.joinedText) }
        }, then: .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#)),
      .text("21 degrees."),
    ])
    let weather = WeatherTool()
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [weather])
    let response = try await session.respond(to: "Weather?")
    #expect(response.content == "21 degrees.")
    #expect(weather.calls.all == ["Oslo"])
  }

  @Test func `the answer to an unknown tool lists the session's tools in name order`() async throws {
    let script = ModelScript([.toolCall(name: "nope", arguments: "{}"), .text("Sorry.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), tools: [WeatherTool(), FailingTool()])
    try await session.respond(to: "Go")
    let outputs = session.transcript.compactMap { entry in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == [#"Error: there is no tool named "nope". Available tools: explode, weather."#])
  }

  @Test func `arguments that fail the schema or are not JSON are answered to the model`() async throws {
    let script = ModelScript([
      .toolCall(name: "weather", arguments: #"{"town":"Oslo"}"#),
      .toolCall(name: "weather", arguments: #"{"city": "Oslo""#),
      .text("Gave up."),
    ])
    let weather = WeatherTool()
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [weather])
    try await session.respond(to: "Weather?")
    #expect(weather.calls.all.isEmpty)
    let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in
      if case .toolOutput(let output) = entry { output } else { nil }
    }
    #expect(outputs.count == 2)
    #expect(outputs[0].segments.joinedText.contains("do not match its schema"))
    #expect(outputs[0].segments.joinedText.contains("city"))
    #expect(outputs[1].segments.joinedText.contains("not valid JSON"))
    #expect(
      outputs.allSatisfy { $0.metadata["error"] == GeneratedContent(kind: .string("invalidArguments")) })
    // The stored call keeps arguments that are not JSON as their text, so nothing the model wrote is lost.
    let stored = session.transcript.compactMap { entry -> GeneratedContent? in
      if case .toolCalls(let calls) = entry { calls.first?.arguments } else { nil }
    }
    #expect(stored.count == 2)
    #expect(stored.last == GeneratedContent(kind: .string(#"{"city": "Oslo""#)))
  }

  @Test func `arguments that follow the schema but do not decode are answered to the model`() async throws {
    let counter = CountTool()
    let script = ModelScript([
      .toolCall(name: "count", arguments: #"{"count":-3}"#),
      .toolCall(name: "count", arguments: #"{"count":3}"#),
      .text("Three."),
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [counter])
    let response = try await session.respond(to: "Count")
    #expect(response.content == "Three.")
    #expect(counter.calls.all == ["3"])
    let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in
      if case .toolOutput(let output) = entry { output } else { nil }
    }
    #expect(outputs.count == 2)
    let correction = outputs[0].segments.joinedText
    #expect(correction.hasPrefix(#"Error: the arguments for "count" could not be read: "#))
    #expect(correction.hasSuffix("Call the tool again with corrected arguments."))
    #expect(outputs[0].metadata == ["error": GeneratedContent(kind: .string("invalidArguments"))])
    #expect(outputs[1].segments.joinedText == "Counted 3.")
  }

  @Test func `a call to a tool in a session without tools lists none as available`() async throws {
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Sorry.")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let response = try await session.respond(to: "Weather?")
    #expect(response.content == "Sorry.")
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == [#"Error: there is no tool named "weather". Available tools: none."#])
  }

  @Test func `a tool that throws fails the turn with ToolCallError and leaves the transcript as it was`()
    async throws
  {
    let script = ModelScript([.text("First answer."), .toolCall(name: "explode", arguments: "{}")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [FailingTool()])
    try await session.respond(to: "First")
    let before = session.transcript
    do {
      try await session.respond(to: "Second")
      Issue.record("expected an error")
    } catch let error as LanguageModelSession.ToolCallError {
      #expect(error.tool.name == "explode")
      #expect(error.underlyingError is FailingTool.Failure)
    }
    #expect(session.transcript == before)
  }

  @Test func `parallel calls run concurrently and their outputs follow call order`() async throws {
    // Every call waits until all three have started (calls run one after another would
    // never get there), then they finish in the order their `finish` says: b, c, a.
    let script = ModelScript([
      .toolCalls([
        (name: "rendezvous", arguments: #"{"name":"a","finish":2}"#),
        (name: "rendezvous", arguments: #"{"name":"b","finish":0}"#),
        (name: "rendezvous", arguments: #"{"name":"c","finish":1}"#),
      ]),
      .text("ok"),
    ])
    let tool = RendezvousTool(callCount: 3)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [tool])
    try await session.respond(to: "Go")
    #expect(tool.log.all == ["b", "c", "a"])
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == ["finished a", "finished b", "finished c"])
  }
}

/// A tool without arguments that logs the arguments it was given, as JSON.
struct ClockTool: Tool {
  let name = "clock"
  let description = "Tells the time."
  let calls = CallLog()

  var parameters: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(name: "NoArguments", properties: []), dependencies: []))
      ?? String.generationSchema
  }

  func call(arguments: GeneratedContent) async throws -> String {
    calls.append(arguments.jsonString)
    return "It is noon."
  }
}

/// A tool whose arguments are a `PositiveCount`: the schema takes any count, reading refuses a negative one.
struct CountTool: Tool {
  let name = "count"
  let description = "Counts."
  let calls = CallLog()

  var parameters: GenerationSchema { PositiveCount.generationSchema }

  func call(arguments: PositiveCount) async throws -> String {
    calls.append("\(arguments.count)")
    return "Counted \(arguments.count)."
  }
}

struct ExpectationFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A tool whose calls meet: each waits until `callCount` calls have
/// started, then until the call finishing before it has finished, then logs
/// its name. Calls that did not run concurrently time out instead.
struct RendezvousTool: Tool {
  let name = "rendezvous"
  let description = "Meets the other calls."
  let log = CallLog()
  private let arrivals = CallLog()
  private let allArrived = TestSignal()
  private let finished: [TestSignal]

  init(callCount: Int) {
    finished = (0..<callCount).map { _ in TestSignal() }
  }

  var parameters: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Meeting",
        properties: [
          .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
          .init(name: "finish", schema: DynamicGenerationSchema(type: Int.self)),
        ]),
      dependencies: [])) ?? String.generationSchema
  }

  func call(arguments: GeneratedContent) async throws -> String {
    let name = try arguments.value(String.self, forProperty: "name")
    let position = try arguments.value(Int.self, forProperty: "finish")
    arrivals.append(name)
    let arrived = arrivals.all.count
    if arrived == finished.count { allArrived.fire() }
    try await allArrived.wait(upTo: .seconds(30))
    if position > 0 { try await finished[position - 1].wait(upTo: .seconds(30)) }
    log.append(name)
    finished[position].fire()
    return "finished \(name)"
  }
}
