import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// Random transcripts as a session would hold them before a generation:
/// instructions (usually), sometimes a summary from an earlier compaction,
/// whole turns with reasoning, responses, rounds of parallel tool calls and
/// images, and a last turn that ends with its prompt or with tool outputs.
///
/// The hard shapes come up too: a prompt that arrives between a tool call
/// and its output (the user wrote while the tool ran), a call whose output
/// never came (a transcript restored after a crash), and images early in the
/// history.
///
/// Built for speed in debug builds: texts and arguments come from pools made
/// once, and random choices use the raw generator.
struct TranscriptGenerator {
  /// Texts of every length from 1 to 800 bytes.
  private static let texts: [Transcript.Segment] = (1...800).map { length in
    .text(Transcript.TextSegment(id: "t", content: String(repeating: "w", count: length)))
  }
  private static let image = Transcript.Segment.attachment(
    Transcript.AttachmentSegment(
      id: "image", content: .image(Transcript.ImageAttachment(data: Data([1, 2, 3]), mimeType: "image/png"))))
  private static let arguments = GeneratedContent(
    kind: .structure(
      properties: ["query": GeneratedContent(kind: .string("qqqqqqqq"))], orderedKeys: ["query"]))

  var random: SeededGenerator
  let prefix: String
  private var nextID = 0

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
    prefix = "s\(seed)-"
  }

  /// A transcript of about `length` entries (at least 1).
  mutating func transcript(length: Int) -> Transcript {
    var entries: [Transcript.Entry] = []
    entries.reserveCapacity(length + 24)
    if chance(percent: 90) {
      entries.append(
        .instructions(Transcript.Instructions(id: id(), segments: [text(600)], toolDefinitions: [])))
    }
    if chance(percent: 10) {
      entries.append(HistorySummary.entry(summary: "An earlier summary \(id()).", postamble: "Go on."))
    }
    while entries.count < length - 1 {
      appendTurn(to: &entries, complete: true)
    }
    appendTurn(to: &entries, complete: false)
    return Transcript(entries: entries)
  }

  private mutating func appendTurn(to entries: inout [Transcript.Entry], complete: Bool) {
    let segments = chance(percent: 5) ? [text(400), Self.image] : [text(400)]
    entries.append(.prompt(Transcript.Prompt(id: id(), segments: segments)))
    let rounds = chance(percent: 40) ? integer(in: 1...3) : 0
    for _ in 0..<(complete ? rounds : integer(in: 0...rounds)) {
      if chance(percent: 30) {
        entries.append(.reasoning(Transcript.Reasoning(id: id(), segments: [text(200)])))
      }
      if chance(percent: 20) { entries.append(response()) }
      var calls: [Transcript.ToolCall] = []
      for _ in 0...integer(in: 0...3) {
        calls.append(Transcript.ToolCall(id: id(), toolName: "lookup", arguments: Self.arguments))
      }
      entries.append(.toolCalls(Transcript.ToolCalls(id: id(), calls)))
      // Parallel calls may finish in any order: rotate the outputs. Now and
      // then a prompt comes between a call and its output, or an output never comes.
      let rotation = integer(in: 0...(calls.count - 1))
      let interleavedPrompt = chance(percent: 8) ? integer(in: 0...(calls.count - 1)) : nil
      let missingOutput = calls.count > 1 && chance(percent: 3) ? integer(in: 0...(calls.count - 1)) : nil
      for offset in calls.indices {
        if offset == interleavedPrompt {
          entries.append(.prompt(Transcript.Prompt(id: id(), segments: [text(200)])))
        }
        guard offset != missingOutput else { continue }
        let call = calls[(offset + rotation) % calls.count]
        entries.append(
          .toolOutput(Transcript.ToolOutput(id: call.id, toolName: "lookup", segments: [text(800)])))
      }
    }
    guard complete else { return }
    if chance(percent: 30) {
      entries.append(.reasoning(Transcript.Reasoning(id: id(), segments: [text(200)])))
    }
    entries.append(response())
  }

  private mutating func response() -> Transcript.Entry {
    .response(Transcript.Response(id: id(), assetIDs: [], segments: [text(600)]))
  }

  private mutating func text(_ maximum: Int) -> Transcript.Segment {
    Self.texts[integer(in: 0...(maximum - 1))]
  }

  private mutating func id() -> String {
    nextID += 1
    return prefix + String(nextID)
  }

  /// True `percent` times in a hundred.
  mutating func chance(percent: UInt64) -> Bool {
    random.next() % 100 < percent
  }

  /// A length between 1 and `maximum`, spread evenly over orders of magnitude.
  mutating func length(maximum: Int) -> Int {
    let fraction = Double(random.next() % 1_000_000) / 1_000_000
    return max(1, Int(exp(fraction * log(Double(maximum)))))
  }

  mutating func integer(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(random.next() % UInt64(range.count))
  }
}
