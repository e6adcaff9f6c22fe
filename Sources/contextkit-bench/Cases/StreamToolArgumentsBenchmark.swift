import Foundation
import ModelSession
import TestSupport

/// A 1 MB tool-call argument streamed in 10,000 deltas through a real
/// session, with every snapshot read by the caller, against parsing the whole
/// argument once. The snapshots parse the arguments incrementally, so the
/// ratio says what streaming costs on top of one parse.
enum StreamToolArgumentsBenchmark {
  /// The argument's shape.
  enum Shape: String {
    /// A file's text in one long string member: `{"path":…,"content":…}`.
    case text
    /// Many small records in one array: `{"rows":[{"id":…,"name":…},…]}`.
    case records
  }

  static let deltaCount = 10_000
  static let argumentBytes = 1_000_000

  static func argument(_ shape: Shape) -> String {
    switch shape {
    case .text:
      var content = ""
      var line = 0
      while content.utf8.count < argumentBytes - 40 {
        content += "Line \(line): the quick brown fox jumps over the lazy dog.\\n"
        line += 1
      }
      return #"{"path":"notes/long.md","content":""# + content + #""}"#
    case .records:
      var rows: [String] = []
      var size = 12
      var index = 0
      while size < argumentBytes {
        let row = #"{"id":\#(index),"name":"row number \#(index)","ok":true}"#
        rows.append(row)
        size += row.utf8.count + 1
        index += 1
      }
      return #"{"rows":["# + rows.joined(separator: ",") + "]}"
    }
  }

  /// The argument cut into `deltaCount` pieces of about the same size, on character boundaries.
  static func deltas(of text: String) -> [String] {
    let bytes = Array(text.utf8)
    let pieceBytes = max(1, bytes.count / deltaCount)
    var pieces: [String] = []
    var start = 0
    while start < bytes.count {
      var end = min(start + pieceBytes, bytes.count)
      while end < bytes.count, bytes[end] & 0b1100_0000 == 0b1000_0000 { end += 1 }
      pieces.append(String(decoding: bytes[start..<end], as: UTF8.self))
      start = end
    }
    return pieces
  }

  static func make(shape: Shape) throws -> BenchmarkCase {
    let text = argument(shape)
    let pieces = deltas(of: text)
    let echo = EchoTool()
    let stream = ScriptStep { _, channel in
      for piece in pieces {
        await channel.send(
          .toolCalls(
            entryID: "calls",
            action: .toolCall(id: "call-1", name: echo.name, action: .appendArguments(piece, tokenCount: 1))))
      }
    }
    return BenchmarkCase(
      name: "session/stream-tool-arguments/1MB-\(shape.rawValue)",
      run: {
        try AsyncBenchmarkRunner.run {
          let session = LanguageModelSession(
            model: ScriptedLanguageModel(script: ModelScript([stream, .text("Done.")])), tools: [echo])
          var snapshots = 0
          for try await _ in session.streamResponse(to: "Write it.") { snapshots += 1 }
          return snapshots
        }
      },
      baseline: BenchmarkCase.Operation(
        name: "one full parse of the argument",
        run: { try GeneratedContent(json: text).isComplete ? 1 : 0 }),
      unit: BenchmarkUnit(name: "delta", countPerOperation: pieces.count))
  }
}

/// A tool that answers with the size of its arguments.
private struct EchoTool: Tool {
  let name = "write_file"
  let description = "Writes a file."
  var parameters: GenerationSchema {
    (try? GenerationSchema(root: DynamicGenerationSchema(name: "Anything", properties: []), dependencies: []))
      ?? String.generationSchema
  }
  func call(arguments: GeneratedContent) async throws -> String {
    "\(arguments.jsonString.utf8.count) bytes"
  }
}
