import DemoSupport

/// Generates long conversations from a seed: user prompts, answers,
/// reasoning, tool loops with large outputs (source files, search results,
/// test logs), and skill activations of both flavours (prompt skills
/// delivered as a tool output, instructions skills that rewrite the
/// instructions, one of them later deactivated).
///
/// The same seed always gives the same conversations, byte for byte. The
/// skills named are those of the shipped `SkillsLibrary/`; the tool that
/// activates them is `toggle_skill`, because one of them allows deactivation.
///
/// Every turn is kept well under the budget (a third of it at most), so a
/// strategy can always fit the current turn: what differs between
/// strategies is what they do with the older turns.
///
/// ```swift
/// let corpus = CorpusGenerator(seed: 2026).corpus()
/// print(corpus.map(\.turns.count))  // between 20 and 400 each
/// ```
package struct CorpusGenerator: Sendable {
  /// The seed.
  package var seed: UInt64
  /// The budget every generated conversation runs under, in tokens.
  package var budget: Int

  /// The prompt skills of the shipped library that conversations activate.
  package static let promptSkills = [
    "reviewing-sql", "triaging-crash-logs", "designing-tool-schemas", "reviewing-swift-concurrency",
  ]
  /// The instructions skill that conversations activate and later deactivate.
  package static let toggledSkill = "writing-commit-messages"
  /// The instructions skill that conversations activate for good.
  package static let permanentSkill = "guarding-secrets"
  /// The skills tool's name for the shipped library.
  package static let skillToolName = "toggle_skill"

  /// Creates a generator.
  package init(seed: UInt64, budget: Int = 8_192) {
    self.seed = seed
    self.budget = budget
  }

  /// `count` conversations, each with a number of turns drawn from `turns`.
  package func corpus(count: Int = 12, turns: ClosedRange<Int> = 20...400) -> [ReplayConversation] {
    var random = SeededGenerator(seed: seed)
    return (0..<max(0, count)).map { index in
      conversation(index: index, turns: random.int(in: turns))
    }
  }

  /// The conversation at `index` of this seed's corpus, with `turns` turns.
  package func conversation(index: Int, turns: Int) -> ReplayConversation {
    var random = SeededGenerator(seed: seed &* 0x2545_f491_4f6c_dd1d &+ UInt64(index))
    var builder = ConversationBuilder(
      text: CorpusText(random: SeededGenerator(seed: random.next())), budget: budget)
    for _ in 0..<max(1, turns) {
      builder.addTurn(&random)
    }
    return ReplayConversation(
      name: "corpus-\(seed)-\(index)",
      instructions:
        "You are a senior engineer pairing with the user on a Swift code base. Read files and run tests "
        + "before you claim anything about them; answer with the facts you found, briefly.",
      budget: budget, tools: builder.tools, usesSkills: true, turns: builder.turns)
  }
}
