import DemoSupport

/// The three hand-made scenarios that `contextkit demo` runs: a coding agent
/// (40 turns, 12,000-token budget), a support chat (30 turns, 6,000) and a
/// research assistant on a 4,096-token budget like the on-device model's.
///
/// ```swift
/// for conversation in DemoScenarios.all() { print(conversation.name, conversation.turns.count) }
/// ```
package enum DemoScenarios {
  /// The scenarios, with tool outputs and answers filled in from `seed`.
  package static func all(seed: UInt64 = 2026) -> [ReplayConversation] {
    [
      CodingAgentScenario.script.conversation(seed: seed),
      SupportChatScenario.script.conversation(seed: seed &+ 1),
      ResearchAssistantScenario.script.conversation(seed: seed &+ 2),
    ]
  }
}
