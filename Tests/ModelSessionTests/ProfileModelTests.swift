import ModelSession
import TestSupport
import Testing

/// A profile that names one model or the other, as its state says.
private struct SwitchingProfile: DynamicProfile {
  let useSecond: CallLog
  let first: ScriptedLanguageModel
  let second: ScriptedLanguageModel

  var body: some DynamicProfile {
    if useSecond.all.isEmpty {
      return Profile { "Be brief." }.model(first)
    }
    return Profile { "Be brief." }.model(second)
  }
}

@Suite("A profile that names the model", .timeLimit(.minutes(10))) struct ProfileModelTests {
  @Test func `a session made from the profile alone generates with the profile's model`() async throws {
    let script = ModelScript([.text("four")])
    let session = LanguageModelSession(
      profile: LanguageModelSession.Profile { "Answer in one word." }.model(
        ScriptedLanguageModel(script: script)))
    let answer = try await session.respond(to: "2 + 2?")
    #expect(answer.content == "four")
    #expect(session.model == nil)
    let sent = try #require(script.requests.first).transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt"])
  }

  @Test func `the profile's model wins over the model given to the session`() async throws {
    let sessionScript = ModelScript([.text("from the session's model")])
    let profileScript = ModelScript([.text("from the profile's model")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: sessionScript),
      profile: Profile { "Be brief." }.model(ScriptedLanguageModel(script: profileScript)))
    let answer = try await session.respond(to: "hi")
    #expect(answer.content == "from the profile's model")
    #expect(sessionScript.requests.isEmpty)
    #expect(profileScript.requests.count == 1)
  }

  @Test func `the model given to the session runs when the profile names none`() async throws {
    let sessionScript = ModelScript([.text("from the session's model")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: sessionScript), profile: Profile { "Be brief." }.temperature(0.2))
    let answer = try await session.respond(to: "hi")
    #expect(answer.content == "from the session's model")
  }

  @Test func `an outer model(_:) wins over an inner one`() async throws {
    let inner = ModelScript([.text("inner")])
    let outer = ModelScript([.text("outer")])
    let profile = Profile { "Be brief." }
      .model(ScriptedLanguageModel(script: inner))
      .model(ScriptedLanguageModel(script: outer))
    let answer = try await LanguageModelSession(profile: profile).respond(to: "hi")
    #expect(answer.content == "outer")
    #expect(inner.requests.isEmpty)
  }

  @Test func `the profile is evaluated every turn, so it can switch models`() async throws {
    let switched = CallLog()
    let first = ModelScript([.text("first model")])
    let second = ModelScript([.text("second model")])
    let session = LanguageModelSession(
      profile: SwitchingProfile(
        useSecond: switched, first: ScriptedLanguageModel(script: first),
        second: ScriptedLanguageModel(script: second)))
    #expect(try await session.respond(to: "one").content == "first model")
    switched.append("switch")
    #expect(try await session.respond(to: "two").content == "second model")
    #expect(first.requests.count == 1)
    #expect(second.requests.count == 1)
    // The second model saw the whole conversation.
    let sent = try #require(second.requests.first).transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
  }

  @Test func `a turn fails with noModel when neither the session nor the profile names a model`() async throws
  {
    let session = LanguageModelSession(profile: Profile { "Be brief." })
    await #expect(throws: LanguageModelSession.SessionError.noModel) {
      try await session.respond(to: "hi")
    }
    #expect(session.transcript.isEmpty)
    #expect(!session.isResponding)
  }
}
