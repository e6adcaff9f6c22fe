import DemoSupport

/// The text of generated conversations: prompts, answers, reasoning and the
/// outputs of tools (source files, search results, test logs), built from
/// small word banks so that the same seed always gives the same bytes.
struct CorpusText {
  var random: SeededGenerator

  private static let subjects = [
    "the session", "the cache", "the parser", "the request builder", "the tool loop", "the summary",
    "the rolling window", "the skills catalog", "the token counter", "the transcript", "the executor",
    "the retry policy", "the database layer", "the sync engine", "the image pipeline", "the settings screen",
  ]
  private static let verbs = [
    "drops", "keeps", "rewrites", "streams", "validates", "retries", "caches", "measures", "splits",
    "merges", "reports", "loads", "rejects", "counts", "orders", "escapes",
  ]
  private static let objects = [
    "the oldest turns", "every tool output", "the prompt prefix", "a partial JSON value", "the schema",
    "each entry id", "the server's usage", "the failing request", "the migration", "the user's locale",
    "the HTTP headers", "the cancellation", "the activation tool", "the summary entry", "a stale token",
  ]
  private static let qualifiers = [
    "before the next generation", "when the budget is exceeded", "on every turn", "only once",
    "in large steps", "without touching the instructions", "after a failed call", "at turn boundaries",
    "for each block of 16 tokens", "while the user waits", "in the background", "under load",
  ]
  private static let identifiers = [
    "session", "cursor", "budget", "entries", "summary", "request", "response", "tokens", "window",
    "catalog", "record", "stage", "report", "prefix", "block", "stream",
  ]

  /// One sentence.
  mutating func sentence() -> String {
    let text =
      "\(random.pick(Self.subjects)) \(random.pick(Self.verbs)) \(random.pick(Self.objects)) "
      + random.pick(Self.qualifiers)
    return text.prefix(1).uppercased() + text.dropFirst() + "."
  }

  /// `count` sentences in one paragraph.
  mutating func paragraph(sentences count: Int) -> String {
    (0..<max(1, count)).map { _ in sentence() }.joined(separator: " ")
  }

  /// About `tokens` tokens of prose, in paragraphs.
  mutating func prose(tokens: Int) -> String {
    var paragraphs: [String] = []
    var length = 0
    while length < tokens * 4 {
      let paragraph = paragraph(sentences: random.int(in: 2...5))
      length += paragraph.utf8.count + 2
      paragraphs.append(paragraph)
    }
    return paragraphs.joined(separator: "\n\n")
  }

  /// A question a user might ask.
  mutating func question() -> String {
    let openings = [
      "Why does", "Can you check whether", "How often", "What happens when", "Could you explain why",
      "Is it expected that", "Please verify that", "When exactly",
    ]
    return "\(random.pick(openings)) \(random.pick(Self.subjects)) \(random.pick(Self.verbs)) "
      + "\(random.pick(Self.objects)) \(random.pick(Self.qualifiers))?"
  }

  /// About `tokens` tokens of Swift-like source, as a file read would return it.
  mutating func sourceFile(path: String, tokens: Int) -> String {
    var lines = ["// \(path)", "import Foundation", ""]
    var length = lines.joined().utf8.count
    var line = 1
    while length < tokens * 4 {
      let name = random.pick(Self.identifiers)
      let other = random.pick(Self.identifiers)
      let chunk = [
        "/// \(sentence())",
        "func \(name)\(line)(_ \(other): Int) -> Int {",
        "  let \(name) = \(other) &* \(random.int(in: 2...97)) + \(line)",
        "  return \(name) > \(random.int(in: 100...9_999)) ? \(name) : \(other)",
        "}",
        "",
      ]
      length += chunk.joined(separator: "\n").utf8.count + 1
      lines.append(contentsOf: chunk)
      line += 1
    }
    return lines.joined(separator: "\n")
  }

  /// About `tokens` tokens of search results for `query`.
  mutating func searchResults(query: String, tokens: Int) -> String {
    var lines = ["Results for \"\(query)\":"]
    var length = lines[0].utf8.count
    var rank = 1
    while length < tokens * 4 {
      let line =
        "\(rank). Sources/\(random.pick(Self.identifiers).capitalized)/\(random.pick(Self.identifiers))"
        + "\(random.int(in: 1...40)).swift:\(random.int(in: 1...400)): \(sentence())"
      length += line.utf8.count + 1
      lines.append(line)
      rank += 1
    }
    return lines.joined(separator: "\n")
  }

  /// About `tokens` tokens of a test run's log.
  mutating func testLog(target: String, tokens: Int) -> String {
    var lines = ["Test run of \(target) started."]
    var length = lines[0].utf8.count
    var index = 1
    while length < tokens * 4 {
      let passed = random.chance(0.93)
      let line =
        "\(passed ? "✔" : "✘") Test \"\(random.pick(Self.identifiers)) \(random.pick(Self.verbs)) "
        + "\(random.pick(Self.objects))\" \(passed ? "passed" : "failed") after 0.\(random.int(in: 1...999)) seconds"
        + (passed ? "" : "\n  Expectation failed: \(sentence())")
      length += line.utf8.count + 1
      lines.append(line)
      index += 1
    }
    lines.append("Test run with \(index - 1) tests finished.")
    return lines.joined(separator: "\n")
  }
}
