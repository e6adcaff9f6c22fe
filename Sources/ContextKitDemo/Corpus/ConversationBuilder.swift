import DemoSupport

/// Builds one generated conversation turn by turn, recording tool outputs.
struct ConversationBuilder {
  var text: CorpusText
  let budget: Int
  private(set) var turns: [ReplayTurn] = []
  private var files: [String: String] = [:]
  private var searches: [String: String] = [:]
  private var logs: [String: String] = [:]
  private var toggledActive = false
  private var permanentActive = false

  init(text: CorpusText, budget: Int) {
    self.text = text
    self.budget = budget
  }

  /// The tools, with every output recorded so far.
  var tools: [ReplayToolSpec] {
    [
      ReplayToolSpec(
        name: "read_file", description: "Returns the contents of a file of the repository.",
        parameter: "path",
        parameterDescription: "The file's path, relative to the repository root.", outputs: files),
      ReplayToolSpec(
        name: "search", description: "Searches the repository's code and returns matching lines.",
        parameter: "query", parameterDescription: "What to look for.", outputs: searches),
      ReplayToolSpec(
        name: "run_tests", description: "Runs a test target and returns its log.", parameter: "target",
        parameterDescription: "The test target's name.", outputs: logs),
    ]
  }

  /// The most tokens one turn's tool outputs take: a sixth of the budget.
  private var turnToolBudget: Int { budget / 6 }

  mutating func addTurn(_ random: inout SeededGenerator) {
    let roll = random.int(in: 0...99)
    switch roll {
    case 0..<50: turns.append(plainTurn(&random))
    case 50..<86: turns.append(toolTurn(&random))
    case 86..<96: turns.append(promptSkillTurn(&random))
    default: turns.append(instructionsSkillTurn(&random))
    }
  }

  private mutating func reasoning(_ random: inout SeededGenerator, probability: Double) -> String? {
    random.chance(probability) ? text.prose(tokens: random.int(in: 30...160)) : nil
  }

  private mutating func answer(_ random: inout SeededGenerator) -> String {
    text.prose(tokens: random.int(in: 60...360))
  }

  private mutating func plainTurn(_ random: inout SeededGenerator) -> ReplayTurn {
    let prompt = text.question() + (random.chance(0.4) ? " " + text.paragraph(sentences: 2) : "")
    return ReplayTurn(
      prompt: prompt,
      generations: [.answer(answer(&random), reasoning: reasoning(&random, probability: 0.3))])
  }

  private mutating func toolTurn(_ random: inout SeededGenerator) -> ReplayTurn {
    var generations: [ReplayGeneration] = []
    var spent = 0
    for _ in 0..<random.int(in: 1...3) where spent < turnToolBudget {
      var calls: [ReplayToolCall] = []
      for _ in 0..<random.int(in: 1...2) where spent < turnToolBudget {
        let size = min(random.int(in: 150...900), turnToolBudget - spent)
        calls.append(toolCall(&random, tokens: size))
        spent += size
      }
      generations.append(.calls(calls, reasoning: reasoning(&random, probability: 0.25)))
    }
    generations.append(.answer(answer(&random)))
    return ReplayTurn(prompt: text.question(), generations: generations)
  }

  private mutating func toolCall(_ random: inout SeededGenerator, tokens: Int) -> ReplayToolCall {
    switch random.int(in: 0...2) {
    case 0:
      let path =
        "Sources/\(random.pick(["Session", "Cache", "History", "Skills", "Chat"]))/File\(random.int(in: 1...60)).swift"
      if files[path] == nil { files[path] = text.sourceFile(path: path, tokens: tokens) }
      return ReplayToolCall(tool: "read_file", parameter: "path", value: path)
    case 1:
      let query = text.sentence()
      searches[query] = text.searchResults(query: query, tokens: tokens)
      return ReplayToolCall(tool: "search", parameter: "query", value: query)
    default:
      let target = "\(random.pick(["Session", "Cache", "History", "Skills"]))Tests#\(turns.count)"
      logs[target] = text.testLog(target: target, tokens: tokens)
      return ReplayToolCall(tool: "run_tests", parameter: "target", value: target)
    }
  }

  private mutating func promptSkillTurn(_ random: inout SeededGenerator) -> ReplayTurn {
    let skill = random.pick(CorpusGenerator.promptSkills)
    var generations: [ReplayGeneration] = [
      .calls([ReplayToolCall(tool: CorpusGenerator.skillToolName, parameter: "skill", value: skill)])
    ]
    if random.chance(0.5) {
      generations.append(.calls([toolCall(&random, tokens: random.int(in: 150...600))]))
    }
    generations.append(.answer(answer(&random), reasoning: reasoning(&random, probability: 0.3)))
    return ReplayTurn(prompt: "Using the \(skill) skill: " + text.question(), generations: generations)
  }

  private mutating func instructionsSkillTurn(_ random: inout SeededGenerator) -> ReplayTurn {
    let skill: String
    if !permanentActive && random.chance(0.3) {
      skill = CorpusGenerator.permanentSkill
      permanentActive = true
    } else {
      skill = CorpusGenerator.toggledSkill
      toggledActive.toggle()
    }
    let prompt =
      skill == CorpusGenerator.toggledSkill && !toggledActive
      ? "We are done committing for now; drop the commit-message rules."
      : "From now on, follow \(skill). " + text.question()
    return ReplayTurn(
      prompt: prompt,
      generations: [
        .calls([ReplayToolCall(tool: CorpusGenerator.skillToolName, parameter: "skill", value: skill)]),
        .answer(answer(&random)),
      ])
  }
}
