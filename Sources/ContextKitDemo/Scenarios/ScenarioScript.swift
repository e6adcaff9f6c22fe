import DemoSupport

/// A hand-written scenario: the prompts a user types and, for each, the
/// tools the model calls (with how large their outputs are). The outputs'
/// bytes and the model's prose are filled in deterministically by
/// ``conversation(seed:)``, so the scenario stays short to read.
struct ScenarioScript {
  /// One call the model makes: the tool, its argument, and the output's size in tokens.
  struct Call {
    var tool: String
    var value: String
    var tokens: Int

    init(_ tool: String, _ value: String, tokens: Int = 0) {
      self.tool = tool
      self.value = value
      self.tokens = tokens
    }
  }

  /// One user turn: the prompt, then rounds of calls (each round one generation), then the answer.
  struct Turn {
    var prompt: String
    var rounds: [[Call]]
    var thinks: Bool

    init(_ prompt: String, thinks: Bool = false, _ rounds: [[Call]] = []) {
      self.prompt = prompt
      self.rounds = rounds
      self.thinks = thinks
    }
  }

  var name: String
  var instructions: String
  var budget: Int
  var tools: [ReplayToolSpec]
  var usesSkills: Bool
  var turns: [Turn]
  /// Tokens of each answer.
  var answerTokens: ClosedRange<Int>

  /// The recorded conversation: tool outputs of the requested sizes, answers and reasoning from `seed`.
  func conversation(seed: UInt64) -> ReplayConversation {
    var random = SeededGenerator(seed: seed)
    var text = CorpusText(random: SeededGenerator(seed: seed &+ 1))
    var specs = Dictionary(uniqueKeysWithValues: tools.map { ($0.name, $0) })
    var replayTurns: [ReplayTurn] = []
    for turn in turns {
      var generations: [ReplayGeneration] = []
      for round in turn.rounds {
        var calls: [ReplayToolCall] = []
        for call in round {
          if var spec = specs[call.tool] {
            if spec.outputs[call.value] == nil {
              spec.outputs[call.value] = Self.output(of: call, text: &text)
            }
            specs[call.tool] = spec
            calls.append(ReplayToolCall(tool: call.tool, parameter: spec.parameter, value: call.value))
          } else {
            calls.append(ReplayToolCall(tool: call.tool, parameter: "skill", value: call.value))
          }
        }
        let reasoning = turn.thinks ? text.prose(tokens: random.int(in: 40...120)) : nil
        generations.append(.calls(calls, reasoning: reasoning))
      }
      generations.append(.answer(text.prose(tokens: random.int(in: answerTokens))))
      replayTurns.append(ReplayTurn(prompt: turn.prompt, generations: generations))
    }
    return ReplayConversation(
      name: name, instructions: instructions, budget: budget,
      tools: tools.map { specs[$0.name] ?? $0 }, usesSkills: usesSkills, turns: replayTurns)
  }

  private static func output(of call: Call, text: inout CorpusText) -> String {
    let tokens = max(20, call.tokens)
    switch call.tool {
    case "read_file", "open_file": return text.sourceFile(path: call.value, tokens: tokens)
    case "run_tests": return text.testLog(target: call.value, tokens: tokens)
    case "fetch_page", "search_manual", "lookup_order": return text.prose(tokens: tokens)
    default: return text.searchResults(query: call.value, tokens: tokens)
    }
  }
}
