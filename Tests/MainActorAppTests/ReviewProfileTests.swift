import ContextKit
import Synchronization
import TestSupport
import Testing

// This target is compiled as a new app target is: with default main-actor
// isolation (`.defaultIsolation(MainActor.self)` in Package.swift). What is
// declared here without an annotation is isolated to the main actor.

/// The app's model object, as the companion package's overview declares it.
@Observable final class Assistant {
  /// One store per session, never recreated per render.
  let activations = SkillActivations()
  /// What the reviewer is told about the team; the profile reads it off the main actor.
  let review = ReviewSettings(team: "iOS")
  /// Main-actor state the profile does not read (the tab the user is on).
  var selectedTab = 0
}

/// Settings that a profile reads while the session evaluates it, off the main
/// actor: `nonisolated` (or it would be main-actor isolated like the rest of
/// the target) and `Sendable`, its state behind a `Mutex`.
nonisolated final class ReviewSettings: Sendable {
  private let state: Mutex<String>

  init(team: String) {
    state = Mutex(team)
  }

  /// The team whose pull requests are reviewed.
  var team: String {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }
}

/// The companion package's `ReviewProfile`, holding the app object.
struct ReviewProfile: LanguageModelSession.DynamicProfile {
  let assistant: Assistant

  var body: some DynamicProfile {
    Profile {
      Instructions("You review pull requests for the \(assistant.review.team) team.")
      Skills(activations: assistant.activations) {
        Skill(
          name: "swift-style", description: "The team's Swift style rules; apply when reviewing Swift",
          prompt: "Prefer guard for early exits.")
        Skill(
          name: "release-tone", description: "House tone for release notes",
          instructions: "Write release notes in second person, present tense.", allowsDeactivation: true)
      }
    }
  }
}

@Suite("A profile that holds a main-actor app object", .timeLimit(.minutes(10)))
struct ReviewProfileTests {
  /// The instructions text of each generation's request, as the model saw it.
  private func instructions(_ script: ModelScript) -> [String] {
    script.requests.map { request in
      guard case .instructions(let instructions) = request.transcript.first else { return "" }
      return instructions.segments.compactMap { segment in
        if case .text(let text) = segment { text.content } else { nil }
      }.joined(separator: "\n")
    }
  }

  @Test func `the profile's output follows the app object from one turn to the next`() async throws {
    let assistant = Assistant()
    let script = ModelScript([.text("First review."), .text("Second review."), .text("Third review.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: ReviewProfile(assistant: assistant))

    try await session.respond(to: "Review pull request 1.")
    // The app changes its object between turns, on the main actor.
    assistant.review.team = "Android"
    assistant.selectedTab = 2
    assistant.activations.activate("release-tone")
    try await session.respond(to: "Review pull request 2.")
    assistant.activations.deactivate("release-tone")
    assistant.review.team = "Web"
    try await session.respond(to: "Review pull request 3.")

    let seen = instructions(script)
    try #require(seen.count == 3)
    #expect(seen[0].contains("for the iOS team."))
    #expect(!seen[0].contains("second person"))
    #expect(seen[1].contains("for the Android team."))
    #expect(
      seen[1].contains("Skill: release-tone [active]\nWrite release notes in second person, present tense."))
    #expect(seen[2].contains("for the Web team."))
    #expect(!seen[2].contains("second person"))
    // The app reads the same store synchronously, as a view would.
    #expect(!assistant.activations.isActive("release-tone"))
    #expect(session.transcript.count == 7)
  }
}
