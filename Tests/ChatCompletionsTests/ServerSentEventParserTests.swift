import ChatCompletions
import Testing

private func parseAll(_ chunks: [[UInt8]]) -> (events: [ServerSentEvent], cutOff: Bool) {
  var parser = ServerSentEventParser()
  var events: [ServerSentEvent] = []
  for chunk in chunks {
    do {
      events += try parser.parse(chunk)
    } catch {
      Issue.record("no bound should be reached here: \(error)")
    }
  }
  let cutOff = parser.finish()
  return (events, cutOff)
}

private func parseAll(_ text: String) -> [ServerSentEvent] {
  parseAll([Array(text.utf8)]).events
}

private let sampleLines = [
  ": a comment that is ignored",
  "retry: 1500",
  "id: 41",
  "data: {\"choices\":[{\"delta\":{\"content\":\"Grüße 👋\"}}]}",
  "",
  "event: update",
  "data:first line",
  "data: second line",
  "data",
  "",
  "id: 42",
  "data:  two leading spaces keep one",
  "",
  "data: [DONE]",
  "",
]

private let sampleEvents = [
  ServerSentEvent(data: "{\"choices\":[{\"delta\":{\"content\":\"Grüße 👋\"}}]}", lastEventID: "41"),
  ServerSentEvent(type: "update", data: "first line\nsecond line\n", lastEventID: "41"),
  ServerSentEvent(data: " two leading spaces keep one", lastEventID: "42"),
  ServerSentEvent(data: "[DONE]", lastEventID: "42"),
]

/// Feeds `chunks` to a parser with these bounds; returns the events and the
/// error, and checks after every chunk that the parser holds no more than its bounds.
private func parseBounded(
  _ chunks: [[UInt8]], line: Int, event: Int
) -> (events: [ServerSentEvent], error: ServerSentEventLimitError?) {
  var parser = ServerSentEventParser(maximumLineBytes: line, maximumEventBytes: event)
  var events: [ServerSentEvent] = []
  for chunk in chunks {
    do {
      events += try parser.parse(chunk)
    } catch {
      return (events, error)
    }
    #expect(parser.bufferedByteCount <= line + event)
  }
  return (events, nil)
}

@Suite(.timeLimit(.minutes(10))) struct ServerSentEventParserTests {
  @Test(.timeLimit(.minutes(10)), arguments: ["\n", "\r\n", "\r"])
  func `every line end kind gives the same events`(lineEnd: String) {
    let text = sampleLines.joined(separator: lineEnd) + lineEnd
    #expect(parseAll(text) == sampleEvents)
  }

  @Test(.timeLimit(.minutes(10))) func `mixed line ends in one stream give the same events`() {
    let ends = ["\r\n", "\n", "\r"]  // a CR is never followed by an LF that ends the next line
    let text = sampleLines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined()
    #expect(parseAll(text) == sampleEvents)
  }

  @Test(.timeLimit(.minutes(10)), arguments: ["\n", "\r\n", "\r"])
  func `every split into two chunks gives the same events`(lineEnd: String) {
    let bytes = Array((sampleLines.joined(separator: lineEnd) + lineEnd).utf8)
    for split in 0...bytes.count {
      let result = parseAll([Array(bytes[..<split]), Array(bytes[split...])])
      #expect(result.events == sampleEvents, "split at byte \(split)")
      #expect(!result.cutOff)
    }
  }

  @Test(.timeLimit(.minutes(10)), arguments: ["\n", "\r\n", "\r"])
  func `one byte at a time gives the same events`(lineEnd: String) {
    let bytes = Array((sampleLines.joined(separator: lineEnd) + lineEnd).utf8)
    #expect(parseAll(bytes.map { [$0] }).events == sampleEvents)
  }

  @Test(.timeLimit(.minutes(10)))
  func `bytes from a sequence without contiguous storage give the same events`() throws {
    // A lazy map has no contiguous storage: the parser takes its other path.
    let bytes = Array((sampleLines.joined(separator: "\n") + "\n").utf8)
    var parser = ServerSentEventParser()
    let events = try parser.parse(bytes.lazy.map { $0 })
    #expect(events == sampleEvents)
    let cutOff = parser.finish()
    #expect(!cutOff)
  }

  @Test(.timeLimit(.minutes(10))) func `every split into three chunks gives the same events`() {
    let bytes = Array((sampleLines.joined(separator: "\r\n") + "\r\n").utf8)
    for first in stride(from: 0, through: bytes.count, by: 11) {
      for second in first...bytes.count {
        let chunks = [Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...])]
        #expect(parseAll(chunks).events == sampleEvents, "split at \(first) and \(second)")
      }
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a CR at a chunk end followed by LF in the next chunk is one line end`() {
    let result = parseAll([
      Array("data: a\r".utf8), Array("\ndata: b\r".utf8), Array("\n\r".utf8), Array("\n".utf8),
    ])
    #expect(result.events == [ServerSentEvent(data: "a\nb")])
  }

  @Test(.timeLimit(.minutes(10))) func `data with and without the space after the colon`() {
    #expect(parseAll("data:x\n\ndata: x\n\n") == [ServerSentEvent(data: "x"), ServerSentEvent(data: "x")])
  }

  @Test(.timeLimit(.minutes(10))) func `comments and unknown fields are ignored`() {
    #expect(parseAll(": ping\nfoo: bar\ndata: x\n:another\n\n") == [ServerSentEvent(data: "x")])
  }

  @Test(.timeLimit(.minutes(10)))
  func `a blank line without data dispatches nothing and resets the event type`() {
    #expect(parseAll("event: a\n\ndata: x\n\n") == [ServerSentEvent(data: "x")])
  }

  @Test(.timeLimit(.minutes(10))) func `an empty data line dispatches an empty event`() {
    #expect(parseAll("data\n\n") == [ServerSentEvent(data: "")])
  }

  @Test(.timeLimit(.minutes(10))) func `the last event ID persists and an ID with NUL is ignored`() {
    let events = parseAll("id: 1\ndata: a\n\ndata: b\n\nid: x\u{0}y\ndata: c\n\nid\ndata: d\n\n")
    #expect(events.map(\.lastEventID) == ["1", "1", "1", ""])
  }

  @Test(.timeLimit(.minutes(10))) func `retry takes only digits`() throws {
    var parser = ServerSentEventParser()
    _ = try parser.parse(Array("retry: 3000\n\nretry: 12a\n\nretry: \n\n".utf8))
    #expect(parser.retryMilliseconds == 3000)
  }

  @Test(.timeLimit(.minutes(10))) func `a byte order mark at the start is dropped even when split`() {
    let result = parseAll([[0xEF], [0xBB, 0xBF], Array("data: x\n\n".utf8)])
    #expect(result.events == [ServerSentEvent(data: "x")])
  }

  @Test(.timeLimit(.minutes(10))) func `a multi-byte character split across chunks survives`() {
    let bytes = Array("data: 👋\n\n".utf8)
    #expect(parseAll([Array(bytes[..<8]), Array(bytes[8...])]).events == [ServerSentEvent(data: "👋")])
  }

  @Test(.timeLimit(.minutes(10)))
  func `an unterminated event at the end of the stream is discarded and reported`() {
    let unterminatedLine = parseAll([Array("data: a\n\ndata: b".utf8)])
    #expect(unterminatedLine.events == [ServerSentEvent(data: "a")])
    #expect(unterminatedLine.cutOff)
    let missingBlankLine = parseAll([Array("data: a\n\ndata: b\n".utf8)])
    #expect(missingBlankLine.events == [ServerSentEvent(data: "a")])
    #expect(missingBlankLine.cutOff)
  }

  @Test(.timeLimit(.minutes(10))) func `a trailing comment or nothing at the end is not a cut-off`() {
    #expect(!parseAll([Array("data: a\n\n: bye".utf8)]).cutOff)
    #expect(!parseAll([Array("data: a\n\n".utf8)]).cutOff)
  }

  @Test(.timeLimit(.minutes(10))) func `the DONE sentinel is recognised`() {
    #expect(parseAll("data: [DONE]\n\n").first?.isDone == true)
    // Whitespace around the sentinel is allowed, as OpenAI's clients and the companion package allow it.
    #expect(parseAll("data: [DONE] \n\n").first?.isDone == true)
    #expect(parseAll("data:  [DONE]\n\n").first?.isDone == true)
    #expect(parseAll("data: [DONE]!\n\n").first?.isDone == false)
    #expect(parseAll("data: [DONE]\ndata: more\n\n").first?.isDone == false)
  }

  @Test(.timeLimit(.minutes(10)))
  func `a line exactly at the bound is parsed, one byte more is a line error`() {
    // "data: 0123456789" is 16 bytes.
    let atBound = parseBounded([Array("data: 0123456789\n\n".utf8)], line: 16, event: 100)
    #expect(atBound.events == [ServerSentEvent(data: "0123456789")] && atBound.error == nil)
    let over = parseBounded([Array("data: 0123456789A\n\n".utf8)], line: 16, event: 100)
    #expect(over.events.isEmpty)
    #expect(over.error == ServerSentEventLimitError(bound: .line, limit: 16))
    #expect(over.error?.description == "an event stream line longer than 16 bytes (no line end within it)")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a line over the bound is refused even when it arrives one byte at a time`() {
    let bytes = Array("data: 0123456789A".utf8).map { [$0] }
    #expect(parseBounded(bytes, line: 16, event: 100).error?.bound == .line)
  }

  @Test(.timeLimit(.minutes(10)))
  func `data lines without a blank line add up to one event, bounded by the event bound`() {
    // Values of 5 and 4 bytes joined by a line feed: 10 bytes, at the bound.
    let atBound = parseBounded([Array("data: 12345\ndata: 1234\n\n".utf8)], line: 100, event: 10)
    #expect(atBound.events == [ServerSentEvent(data: "12345\n1234")] && atBound.error == nil)
    let over = parseBounded([Array("data: 12345\ndata: 12345\n\n".utf8)], line: 100, event: 10)
    #expect(over.error == ServerSentEventLimitError(bound: .event, limit: 10))
    #expect(
      over.error?.description
        == "an event stream event larger than 10 bytes (data: lines with no blank line to end the event)")
    // Each event is bounded on its own: many events of 10 bytes are fine.
    let many = parseBounded(
      [Array(String(repeating: "data: 1234567890\n\n", count: 50).utf8)], line: 100, event: 10)
    #expect(many.events.count == 50 && many.error == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `an endless line in 64 KiB pieces stops at the default 16 MiB bound`()
  {
    var parser = ServerSentEventParser()
    let piece = [UInt8](repeating: 0x78, count: 64 << 10)
    var fed = 0
    var caught: ServerSentEventLimitError?
    _ = try? parser.parse(Array("data: ".utf8))
    while caught == nil, fed < 1_000 {
      do {
        _ = try parser.parse(piece)
        fed += 1
      } catch {
        caught = error
      }
      #expect(parser.bufferedByteCount <= 16 << 20)
    }
    #expect(caught == ServerSentEventLimitError(bound: .line, limit: 16 << 20))
    #expect(caught?.description == "an event stream line longer than 16 MiB (no line end within it)")
    // 6 bytes of "data: " and 255 whole pieces fit in 16 MiB; the 256th does not.
    #expect(fed == 255)
  }

  @Test(.timeLimit(.minutes(10))) func `a byte order mark is dropped only at the start of the stream`() {
    // Later, the bytes EF BB BF belong to the field name, "\u{FEFF}data", which no field has: the line is ignored.
    let result = parseAll([Array("data: x\n\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("data: y\n\n".utf8)])
    #expect(result.events == [ServerSentEvent(data: "x")])
    #expect(!result.cutOff)
  }

  @Test(.timeLimit(.minutes(10)))
  func `an event cut off after its event line, before any data, is reported as cut off`() {
    // The line is complete, so nothing is pending on the line; the event's type is.
    let result = parseAll([Array("data: a\n\nevent: update\n".utf8)])
    #expect(result.events == [ServerSentEvent(data: "a")])
    #expect(result.cutOff)
  }
}
