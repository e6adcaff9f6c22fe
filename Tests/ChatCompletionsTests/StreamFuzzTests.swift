import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Seeded fuzzing of the two pieces that read what a server streams: the
/// event-stream parser and the tool-call assembly. Each test runs a fixed
/// number of seeds (replayable: a failure names its seed) and stops early
/// when its time budget is spent, so it stays bounded on a loaded machine.
@Suite(.timeLimit(.minutes(20)))
struct StreamFuzzTests {
  static let seeds: ClosedRange<UInt64> = 1...400
  static let budget = Duration.seconds(20)

  // MARK: Server-sent events

  /// A random event stream: well-formed lines, near-miss lines and raw bytes
  /// (CR, LF, NUL, invalid UTF-8, byte order marks), ending anywhere.
  static func randomStream(_ random: inout SeededGenerator) -> [UInt8] {
    let ends: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A]]
    var bytes: [UInt8] = []
    for _ in 0..<random.next(below: 40) {
      var line: [UInt8]
      switch random.next(below: 9) {
      case 0: line = Array("data: ".utf8) + randomText(&random, length: random.next(below: 60))
      case 1: line = Array("data:".utf8) + randomText(&random, length: random.next(below: 8))
      case 2: line = Array("event: ".utf8) + randomText(&random, length: random.next(below: 10))
      case 3: line = Array("id: ".utf8) + randomText(&random, length: random.next(below: 10))
      case 4: line = Array("retry: ".utf8) + Array(String(random.next(below: 100_000)).utf8)
      case 5: line = Array(": comment ".utf8) + randomText(&random, length: random.next(below: 20))
      case 6: line = []  // A blank line: dispatch.
      case 7: line = (0..<random.next(below: 30)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      default: line = [0xEF, 0xBB, 0xBF] + Array("data".utf8)
      }
      bytes += line
      if random.next(below: 10) > 0 {
        bytes += ends[random.next(below: ends.count)]
      }
    }
    return bytes
  }

  static func randomText(_ random: inout SeededGenerator, length: Int) -> [UInt8] {
    let alphabet = Array("abc {}\":,[]xyzé👋".utf8)
    return (0..<length).map { _ in alphabet[random.next(below: alphabet.count)] }
  }

  /// The stream cut into pieces of random sizes (empty pieces included).
  static func randomPieces(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + random.next(below: 24))
      pieces.append(Array(bytes[start..<end]))
      start = end
    }
    return pieces
  }

  /// Parses pieces; returns the events, the error, and whether the buffered
  /// bytes ever went past the bounds.
  static func parse(
    _ pieces: [[UInt8]], line: Int, event: Int
  ) -> (events: [ServerSentEvent], error: ServerSentEventLimitError?, overBound: Bool) {
    var parser = ServerSentEventParser(maximumLineBytes: line, maximumEventBytes: event)
    var events: [ServerSentEvent] = []
    var overBound = false
    for piece in pieces {
      do {
        events += try parser.parse(piece)
      } catch {
        return (events, error, overBound)
      }
      overBound = overBound || parser.bufferedByteCount > line + event
    }
    parser.finish()
    return (events, nil, overBound)
  }

  /// The longest line of a stream, in bytes, split at CR, LF and CRLF.
  static func longestLine(_ bytes: [UInt8]) -> Int {
    var longest = 0
    var current = 0
    for byte in bytes {
      if byte == 0x0A || byte == 0x0D {
        current = 0
      } else {
        current += 1
        longest = max(longest, current)
      }
    }
    return longest
  }

  @Test func `random event streams in random pieces: same events as unbounded, bounded memory, typed errors`()
  {
    let deadline = ContinuousClock.now + Self.budget
    var checked = 0
    var passed = 0
    var failed = 0
    for seed in Self.seeds where ContinuousClock.now < deadline {
      var random = SeededGenerator(seed: seed)
      let bytes = Self.randomStream(&random)
      // Small bounds for two seeds in three, ample ones for the rest.
      let ample = random.next(below: 3) == 0
      let lineLimit = ample ? 10_000 : 1 + random.next(below: 80)
      let eventLimit = ample ? 10_000 : 1 + random.next(below: 200)
      let reference = Self.parse([bytes], line: .max / 4, event: .max / 4)
      #expect(reference.error == nil, "seed \(seed)")
      let bounded = Self.parse(Self.randomPieces(bytes, &random), line: lineLimit, event: eventLimit)
      #expect(!bounded.overBound, "seed \(seed): the parser held more than its bounds")
      if let error = bounded.error {
        #expect(
          error.limit == (error.bound == .line ? lineLimit : eventLimit),
          "seed \(seed): \(error) names another bound")
        // Everything before the error is what the unbounded parser saw too.
        #expect(Array(reference.events.prefix(bounded.events.count)) == bounded.events, "seed \(seed)")
      } else {
        #expect(bounded.events == reference.events, "seed \(seed): the pieces changed the events")
      }
      // A stream shorter than both bounds cannot fail: no line or event can be longer than it.
      if bytes.count <= min(lineLimit, eventLimit) {
        #expect(bounded.error == nil, "seed \(seed): a bound was reported for a stream within them")
      }
      if bounded.error == nil { passed += 1 } else { failed += 1 }
      #expect(
        Self.longestLine(bytes) <= lineLimit || bounded.error != nil, "seed \(seed): a long line got through")
      checked += 1
    }
    #expect(checked >= 50, "only \(checked) seeds ran within the time budget")
    #expect(passed > 10 && failed > 10, "streams within their bounds \(passed), past them \(failed)")
  }

  // MARK: Tool-call assembly

  private typealias Chunk = ChatCompletionChunk

  /// A random run of tool-call fragments: indexes (some missing), ids from a
  /// small pool (so that they collide), names that come late or never, and
  /// argument pieces.
  private static func randomChunks(_ random: inout SeededGenerator) -> [Chunk] {
    let ids: [String?] = [nil, nil, nil, "a", "b", "c", ""]
    let names: [String?] = [nil, nil, "", "weather", "time"]
    var chunks: [Chunk] = []
    for _ in 0..<random.next(below: 12) {
      var fragments: [Chunk.ToolCallDelta] = []
      for _ in 0..<(1 + random.next(below: 2)) {
        let index: Int? = random.next(below: 5) == 0 ? nil : random.next(below: 3)
        let arguments = String(decoding: randomText(&random, length: random.next(below: 6)), as: UTF8.self)
        fragments.append(
          .init(
            index: index, id: ids[random.next(below: ids.count)], type: "function",
            function: .init(name: names[random.next(below: names.count)], arguments: arguments)))
      }
      let content = random.next(below: 4) == 0 ? "text" : nil
      chunks.append(Chunk(choices: [.init(delta: .init(content: content, toolCalls: fragments))]))
    }
    chunks.append(Chunk(choices: [.init(delta: .init(), finishReason: .toolCalls)]))
    return chunks
  }

  @Test func `random tool-call fragments: every argument byte reaches a named call, or a typed error`() {
    let deadline = ContinuousClock.now + Self.budget
    var succeeded = 0
    var refused = 0
    for seed in Self.seeds where ContinuousClock.now < deadline {
      var random = SeededGenerator(seed: seed)
      let chunks = Self.randomChunks(&random)
      var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
      var events: [EventTranslator.Event] = []
      do {
        for chunk in chunks {
          events += try translator.translate(chunk)
        }
        try translator.finish()
      } catch let error as ChatCompletionsError {
        #expect(error.kind == .malformedResponse, "seed \(seed): \(error)")
        refused += 1
        continue
      } catch {
        Issue.record("seed \(seed): an untyped error \(error)")
        continue
      }
      succeeded += 1
      var namesByID: [String: Set<String>] = [:]
      var argumentBytes = 0
      for case .toolCalls(_, .toolCall(let id, let name, .appendArguments(let piece, _))) in events {
        #expect(!name.isEmpty, "seed \(seed): a call event without a name")
        namesByID[id, default: []].insert(name)
        argumentBytes += piece.utf8.count
      }
      #expect(namesByID.values.allSatisfy { $0.count == 1 }, "seed \(seed): one id under two names")
      let sentBytes = chunks.flatMap { $0.choices.flatMap(\.delta.toolCalls) }
        .map { $0.function?.arguments?.utf8.count ?? 0 }.reduce(0, +)
      #expect(argumentBytes == sentBytes, "seed \(seed): argument bytes were dropped or invented")
    }
    // Both outcomes occur: the generator is not trivially all-valid or all-invalid.
    #expect(succeeded > 10 && refused > 10, "succeeded \(succeeded), refused \(refused)")
  }
}
