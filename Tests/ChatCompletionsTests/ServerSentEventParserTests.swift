import ChatCompletions
import Testing

private func parseAll(_ chunks: [[UInt8]]) -> (events: [ServerSentEvent], cutOff: Bool) {
  var parser = ServerSentEventParser()
  var events: [ServerSentEvent] = []
  for chunk in chunks {
    events += parser.parse(chunk)
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

@Test(arguments: ["\n", "\r\n", "\r"])
func `every line end kind gives the same events`(lineEnd: String) {
  let text = sampleLines.joined(separator: lineEnd) + lineEnd
  #expect(parseAll(text) == sampleEvents)
}

@Test func `mixed line ends in one stream give the same events`() {
  let ends = ["\r\n", "\n", "\r"]  // a CR is never followed by an LF that ends the next line
  let text = sampleLines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined()
  #expect(parseAll(text) == sampleEvents)
}

@Test(arguments: ["\n", "\r\n", "\r"])
func `every split into two chunks gives the same events`(lineEnd: String) {
  let bytes = Array((sampleLines.joined(separator: lineEnd) + lineEnd).utf8)
  for split in 0...bytes.count {
    let result = parseAll([Array(bytes[..<split]), Array(bytes[split...])])
    #expect(result.events == sampleEvents, "split at byte \(split)")
    #expect(!result.cutOff)
  }
}

@Test(arguments: ["\n", "\r\n", "\r"])
func `one byte at a time gives the same events`(lineEnd: String) {
  let bytes = Array((sampleLines.joined(separator: lineEnd) + lineEnd).utf8)
  #expect(parseAll(bytes.map { [$0] }).events == sampleEvents)
}

@Test func `every split into three chunks gives the same events`() {
  let bytes = Array((sampleLines.joined(separator: "\r\n") + "\r\n").utf8)
  for first in stride(from: 0, through: bytes.count, by: 11) {
    for second in first...bytes.count {
      let chunks = [Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...])]
      #expect(parseAll(chunks).events == sampleEvents, "split at \(first) and \(second)")
    }
  }
}

@Test func `a CR at a chunk end followed by LF in the next chunk is one line end`() {
  let result = parseAll([
    Array("data: a\r".utf8), Array("\ndata: b\r".utf8), Array("\n\r".utf8), Array("\n".utf8),
  ])
  #expect(result.events == [ServerSentEvent(data: "a\nb")])
}

@Test func `data with and without the space after the colon`() {
  #expect(parseAll("data:x\n\ndata: x\n\n") == [ServerSentEvent(data: "x"), ServerSentEvent(data: "x")])
}

@Test func `comments and unknown fields are ignored`() {
  #expect(parseAll(": ping\nfoo: bar\ndata: x\n:another\n\n") == [ServerSentEvent(data: "x")])
}

@Test func `a blank line without data dispatches nothing and resets the event type`() {
  #expect(parseAll("event: a\n\ndata: x\n\n") == [ServerSentEvent(data: "x")])
}

@Test func `an empty data line dispatches an empty event`() {
  #expect(parseAll("data\n\n") == [ServerSentEvent(data: "")])
}

@Test func `the last event ID persists and an ID with NUL is ignored`() {
  let events = parseAll("id: 1\ndata: a\n\ndata: b\n\nid: x\u{0}y\ndata: c\n\nid\ndata: d\n\n")
  #expect(events.map(\.lastEventID) == ["1", "1", "1", ""])
}

@Test func `retry takes only digits`() {
  var parser = ServerSentEventParser()
  _ = parser.parse(Array("retry: 3000\n\nretry: 12a\n\nretry: \n\n".utf8))
  #expect(parser.retryMilliseconds == 3000)
}

@Test func `a byte order mark at the start is dropped even when split`() {
  let result = parseAll([[0xEF], [0xBB, 0xBF], Array("data: x\n\n".utf8)])
  #expect(result.events == [ServerSentEvent(data: "x")])
}

@Test func `a multi-byte character split across chunks survives`() {
  let bytes = Array("data: 👋\n\n".utf8)
  #expect(parseAll([Array(bytes[..<8]), Array(bytes[8...])]).events == [ServerSentEvent(data: "👋")])
}

@Test func `an unterminated event at the end of the stream is discarded and reported`() {
  let unterminatedLine = parseAll([Array("data: a\n\ndata: b".utf8)])
  #expect(unterminatedLine.events == [ServerSentEvent(data: "a")])
  #expect(unterminatedLine.cutOff)
  let missingBlankLine = parseAll([Array("data: a\n\ndata: b\n".utf8)])
  #expect(missingBlankLine.events == [ServerSentEvent(data: "a")])
  #expect(missingBlankLine.cutOff)
}

@Test func `a trailing comment or nothing at the end is not a cut-off`() {
  #expect(!parseAll([Array("data: a\n\n: bye".utf8)]).cutOff)
  #expect(!parseAll([Array("data: a\n\n".utf8)]).cutOff)
}

@Test func `the DONE sentinel is recognised`() {
  #expect(parseAll("data: [DONE]\n\n").first?.isDone == true)
  #expect(parseAll("data: [DONE] \n\n").first?.isDone == false)
}
