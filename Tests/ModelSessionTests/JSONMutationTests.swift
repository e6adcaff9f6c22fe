import ModelSession
import TestSupport
import Testing

private let seedDocuments = [
  #"{"a":[1,-2.5e3,"x\n\u00e9\ud83d\ude00",true,null,{}],"b":"q\"s"}"#,
  #"[0,1e5,-0.25,"\\\/",[[]],{"k":false}]"#,
  #"[123456789012345678, 0.1, 5e-324, 1.7976931348623157e308]"#,
]

private let mutationBytes = Array(#"{}[],:"\ u0123456789abcdefABCDEF.eE+-tfnrl/"#.utf8) + [0x0A, 0x09, 0x01]

/// Streams `text` through a `StreamingJSONParser` in pieces of `length` characters.
private func stream(_ text: String, inPiecesOf length: Int) -> Result<GeneratedContent, JSONParsingError> {
  var parser = StreamingJSONParser()
  let characters = Array(text)
  for start in stride(from: 0, to: characters.count, by: length) {
    do {
      try parser.append(String(characters[start..<min(start + length, characters.count)]))
    } catch {
      return .failure(error)
    }
  }
  return .success(parser.content)
}

@Suite(.timeLimit(.minutes(10))) struct JSONMutationTests {
  /// Mutated documents: whatever the parser decides, its strict, partial and
  /// streaming modes must agree, and what it accepts must print and parse back the same.
  @Test(.timeLimit(.minutes(10))) func `mutated documents keep strict and partial parsing consistent`() throws
  {
    var random = SeededGenerator(seed: 8259)
    var acceptedCount = 0
    for iteration in 0..<3_000 {
      var bytes = Array(seedDocuments[iteration % seedDocuments.count].utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        let replacement = mutationBytes[Int.random(in: 0..<mutationBytes.count, using: &random)]
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[index] = replacement
        case 1: if bytes.count > 1 { bytes.remove(at: index) }
        default: bytes.insert(replacement, at: index)
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let pieceLength = Int.random(in: 1...8, using: &random)
      let streamed = stream(text, inPiecesOf: pieceLength)
      let partial = Result { () throws(JSONParsingError) in try GeneratedContent(partialJSON: text) }
      switch (streamed, partial) {
      case (.success(let streamedValue), .success(let partialValue)):
        #expect(
          streamedValue == partialValue && streamedValue.isComplete == partialValue.isComplete, "\(text)")
      case (.failure(let streamedError), .failure(let partialError)):
        // The messages may differ: a stream can see an out-of-range number before its last digits.
        #expect(streamedError.offset == partialError.offset, "\(text)")
      default:
        Issue.record("streaming and partial parsing disagree on \(text.debugDescription)")
      }
      if let accepted = try? GeneratedContent(json: text) {
        acceptedCount += 1
        #expect(try GeneratedContent(json: accepted.jsonString) == accepted, "\(text)")
        #expect(try GeneratedContent(partialJSON: text) == accepted, "\(text)")
        let cut = Int.random(in: 0...bytes.count, using: &random)
        let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
        #expect(throws: Never.self, "prefix of \(text)") { try GeneratedContent(partialJSON: prefix) }
      } else if let partial = try? GeneratedContent(partialJSON: text) {
        // Text that strict parsing rejects can at most be the start of a document.
        #expect(!partial.isComplete, "\(text)")
      }
    }
    #expect(acceptedCount > 100)
  }
}
