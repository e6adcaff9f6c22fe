import Foundation
import Testing

@testable import ModelSession

/// Tool-call arguments parsed as they stream: every snapshot must equal what
/// the one-shot partial parser makes of the whole text so far.
@Suite(.timeLimit(.minutes(10)))
struct StreamedToolArgumentsTests {
  private static func snapshots(of pieces: [String]) -> [GeneratedContent] {
    var assembler = GenerationAssembler()
    var result: [GeneratedContent] = []
    for piece in pieces {
      assembler.apply(
        .toolCalls(
          entryID: "calls",
          action: .toolCall(id: "c1", name: "write", action: .appendArguments(piece, tokenCount: 1))))
      guard case .toolCalls(let calls) = assembler.entries(partial: true).last, let call = calls.calls.first
      else {
        continue
      }
      result.append(call.arguments)
    }
    return result
  }

  /// Cuts `text` into pieces of `size` characters.
  private static func pieces(_ text: String, size: Int) -> [String] {
    var rest = Substring(text)
    var result: [String] = []
    while !rest.isEmpty {
      result.append(String(rest.prefix(size)))
      rest = rest.dropFirst(size)
    }
    return result
  }

  @Test(arguments: [1, 2, 3, 7])
  func `each snapshot equals the partial parse of the text so far`(pieceSize: Int) throws {
    let text =
      #"  {"path": "a\"b\\c\u00e9\ud83d\ude00.md", "lines": [1, -2.5e3, true, null, {"x": "y"}], "done": false}"#
    let pieces = Self.pieces(text, size: pieceSize)
    let snapshots = Self.snapshots(of: pieces)
    #expect(snapshots.count == pieces.count)
    for (index, snapshot) in snapshots.enumerated() {
      let prefix = pieces[...index].joined()
      let expected =
        prefix.allSatisfy(\.isWhitespace)
        ? GeneratedContent(properties: [:]) : try GeneratedContent(partialJSON: prefix)
      #expect(snapshot == expected, "after \(prefix.debugDescription)")
      #expect(snapshot.isComplete == expected.isComplete, "after \(prefix.debugDescription)")
    }
    let last = try #require(snapshots.last)
    #expect(last.isComplete)
    #expect(last.jsonString == #"{"path":"a\"b\\cé😀.md","lines":[1,-2500,true,null,{"x":"y"}],"done":false}"#)
  }

  @Test func `long arguments refresh on a geometric schedule and lag by at most a third`() throws {
    let rows = (0..<500).map { #"{"id":\#($0),"name":"row \#($0)"}"# }
    let text = #"{"rows":["# + rows.joined(separator: ",") + "]}"
    let pieces = Self.pieces(text, size: 50)
    let snapshots = Self.snapshots(of: pieces)
    let prefixes = pieces.indices.map { pieces[...$0].joined() }
    let parsedPrefixes = try prefixes.map { try GeneratedContent(partialJSON: $0) }
    var refreshes = 0
    var previous: GeneratedContent?
    for (index, snapshot) in snapshots.enumerated() {
      // The snapshot is the partial parse of an earlier (or the current) prefix…
      let source = try #require(
        (0...index).last { parsedPrefixes[$0] == snapshot }, "snapshot \(index) matches no prefix")
      // …that is at least two thirds of the text so far.
      #expect(prefixes[source].utf8.count * 3 >= prefixes[index].utf8.count * 2, "snapshot \(index) lags")
      if snapshot != previous { refreshes += 1 }
      previous = snapshot
    }
    // 4,096 bytes at one refresh a piece (about 82 pieces), then a refresh per
    // 50% growth up to the text's length: a handful more, not one a piece.
    #expect(text.utf8.count > 12_000)
    #expect(refreshes <= 4_096 / 50 + 8)
  }

  @Test func `arguments that stop being JSON snapshot as an empty object and finish as their text`() {
    var assembler = GenerationAssembler()
    for piece in [#"{"a": 1"#, "}}", " tail"] {
      assembler.apply(
        .toolCalls(
          entryID: "calls",
          action: .toolCall(id: "c1", name: "w", action: .appendArguments(piece, tokenCount: 1))))
    }
    guard case .toolCalls(let partial) = assembler.entries(partial: true).last,
      case .toolCalls(let final) = assembler.entries(partial: false).last
    else {
      Issue.record("no tool-call entry")
      return
    }
    #expect(partial.calls.first?.arguments == GeneratedContent(properties: [:]))
    #expect(final.calls.first?.arguments == GeneratedContent(kind: .string(#"{"a": 1}} tail"#)))
  }
}
