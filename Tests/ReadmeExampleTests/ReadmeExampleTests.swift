import ContextKit
import Foundation
import LocalServerSupport
import Synchronization
import TestSupport
import Testing

/// README.md's examples are kept as code: `ReadmeExamples.swift` holds each
/// `swift` block, this target compiles it, and the tests below run the
/// examples and check that the README still shows exactly that code.
@Suite("README examples", .timeLimit(.minutes(20)))
struct ReadmeExampleTests {
  private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  private static let packageRoot = folder.deletingLastPathComponent().deletingLastPathComponent()

  /// The lines of each fenced `swift` block of a Markdown text, `import` lines and the
  /// blank lines before the code left out.
  static func swiftBlocks(ofMarkdown text: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if let lines = current, line.hasPrefix("```") {
        blocks.append(lines)
        current = nil
      } else if let lines = current, !line.hasPrefix("import "), !(lines.isEmpty && line.isEmpty) {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The lines between each `// README begin` and `// README end` of a Swift file, unindented.
  static func markedRegions(ofSwift text: String) -> [[String]] {
    var regions: [[String]] = []
    var current: [String]?
    var indent = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let trimmed = line.drop { $0 == " " }
      if trimmed == "// README begin" {
        current = []
        indent = line.count - trimmed.count
      } else if trimmed == "// README end", let lines = current {
        regions.append(lines)
        current = nil
      } else if current != nil {
        current?.append(
          line.count >= indent && line.prefix(indent).allSatisfy { $0 == " " }
            ? String(line.dropFirst(indent)) : line)
      }
    }
    return regions
  }

  /// What differs between a Markdown text's `swift` blocks and a Swift file's marked
  /// regions, one message per block; empty when they agree.
  static func differences(markdown: String, swift: String) -> [String] {
    let blocks = swiftBlocks(ofMarkdown: markdown)
    let regions = markedRegions(ofSwift: swift)
    var messages: [String] = []
    if blocks.count != regions.count {
      messages.append(
        "README.md has \(blocks.count) swift blocks, ReadmeExamples.swift \(regions.count) regions")
    }
    for (index, (block, region)) in zip(blocks, regions).enumerated() where block != region {
      let shorter = min(block.count, region.count)
      let line = (0..<shorter).first { block[$0] != region[$0] } ?? shorter
      messages.append(
        "swift block \(index + 1), its line \(line + 1): README has "
          + (line < block.count ? "`\(block[line])`" : "nothing") + ", ReadmeExamples.swift "
          + (line < region.count ? "`\(region[line])`" : "nothing"))
    }
    return messages
  }

  @Test func `README.md's examples are these`() throws {
    let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let snippets = try String(
      contentsOf: Self.folder.appendingPathComponent("ReadmeExamples.swift"), encoding: .utf8)
    #expect(Self.differences(markdown: readme, swift: snippets) == [])
  }

  @Test func `the comparison sees a changed, a missing and an extra line, and a missing block`() {
    let markdown = "Text\n```swift\nimport ContextKit\n\nlet a = 1\n\nlet b = 2\n```\n```sh\nls\n```\n"
    #expect(Self.swiftBlocks(ofMarkdown: markdown) == [["let a = 1", "", "let b = 2"]])
    let swift = "func f() {\n  // README begin\n  let a = 1\n\n  let b = 2\n  // README end\n}\n"
    #expect(Self.markedRegions(ofSwift: swift) == [["let a = 1", "", "let b = 2"]])
    #expect(Self.differences(markdown: markdown, swift: swift) == [])
    let changed = swift.replacingOccurrences(of: "b = 2", with: "b = 3")
    #expect(
      Self.differences(markdown: markdown, swift: changed) == [
        "swift block 1, its line 3: README has `let b = 2`, ReadmeExamples.swift `let b = 3`"
      ])
    let missing = swift.replacingOccurrences(of: "  let b = 2\n", with: "")
    #expect(
      Self.differences(markdown: markdown, swift: missing) == [
        "swift block 1, its line 3: README has `let b = 2`, ReadmeExamples.swift nothing"
      ])
    let extra = swift.replacingOccurrences(of: "  let b = 2\n", with: "  let b = 2\n  print(b)\n")
    #expect(
      Self.differences(markdown: markdown, swift: extra) == [
        "swift block 1, its line 4: README has nothing, ReadmeExamples.swift `print(b)`"
      ])
    let twoBlocks = markdown + "```swift\nlet c = 3\n```\n"
    #expect(
      Self.differences(markdown: twoBlocks, swift: swift) == [
        "README.md has 2 swift blocks, ReadmeExamples.swift 1 regions"
      ])
  }

  @Test func `the compaction example reports every generation`() async throws {
    let library = try SkillsLibrary(root: Self.packageRoot.appendingPathComponent("SkillsLibrary"))
    let profile = readmeCompaction(library: library, activations: SkillActivations())
    let script = ModelScript((0..<4).map { _ in ScriptStep.text("An answer about the router.") })
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    for turn in 0..<4 {
      try await session.respond(to: "Question \(turn): the router blinks red.")
    }
    #expect(script.requests.count == 4)
    #expect(session.transcript.count == 9)
  }

  @Test func `the companion spellings keep the window and summarize with the session's model`() async throws {
    let (windowed, summarized) = readmeCompanionModifiers()
    let windowScript = ModelScript((0..<15).map { ScriptStep.text("Answer \($0).") })
    let windowSession = LanguageModelSession(
      model: ScriptedLanguageModel(script: windowScript), profile: windowed)
    for turn in 0..<15 {
      try await windowSession.respond(to: "Question \(turn).")
    }
    let lastRequest = try #require(windowScript.requests.last)
    // 15 turns are 31 entries with the instructions; the model sees the instructions and at
    // most 20 entries, whole turns only: the instructions, then 9 turns (18 entries) and the prompt.
    #expect(windowSession.transcript.count == 31)
    #expect(lastRequest.transcript.count == 20)
    guard case .instructions = lastRequest.transcript.first else {
      Issue.record("the window dropped the instructions")
      return
    }

    let summaryScript = ModelScript((0..<30).map { ScriptStep.text("Answer \($0).") })
    let summarySession = LanguageModelSession(
      model: ScriptedLanguageModel(script: summaryScript), profile: summarized)
    for turn in 0..<22 {
      try await summarySession.respond(to: "Question \(turn).")
    }
    // Past 40 entries, one generation of the session's own model wrote the summary.
    #expect(summaryScript.requests.count == 23)
    // The summary became the session's history, as the README says: the transcript is what the
    // model was last sent and its answer, with the summary in front of the oldest prompt kept;
    // the full transcript has all 22 turns (44 entries) after the instructions.
    let lastSent = try #require(summaryScript.requests.last).transcript
    #expect(summarySession.transcript.count == lastSent.count + 1)
    #expect(summarySession.transcript.entries.dropFirst().first?.containsHistorySummary == true)
    #expect(summarySession.fullTranscript.count == 45)
  }

  /// The local server's URL; unset or empty (as `scripts/mutation-check` sets it) skips the test.
  static let localEndpoint = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"] ?? ""

  @Test(
    .enabled(if: !localEndpoint.isEmpty, "CONTEXTKIT_TEST_ENDPOINT is not set"), .holding(.standardWindow))
  func `the session example answers from the local model server`() async throws {
    let endpoint = try #require(URL(string: Self.localEndpoint), "CONTEXTKIT_TEST_ENDPOINT is not a URL")
    let session = try await readmeSessionWithSkills(serverURL: endpoint)
    guard case .response(let response) = session.transcript.last else {
      Issue.record("the session ended without a response")
      return
    }
    #expect(!response.segments.isEmpty)
  }
}
