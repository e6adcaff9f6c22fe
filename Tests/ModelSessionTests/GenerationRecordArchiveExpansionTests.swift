import Foundation
import ModelSession
import Testing

/// A records file whose one prompt entry of `entryBytes` is named
/// `references` times by one generation's sent transcript (`[[0,1],[0,1],…]`).
private func amplifyingFile(entryBytes: Int, references: Int, generations: Int = 1) -> Data {
  var text = #"{"format":"contextkit.generation-records","version":3}"# + "\n"
  text +=
    #"{"entry":{"number":0,"value":{"id":"p","options":{},"segments":[{"content":""#
    + String(repeating: "a", count: entryBytes) + #"","id":"s","type":"text"}],"type":"prompt"}}}"# + "\n"
  let runs = Array(repeating: "[0,1]", count: references).joined(separator: ",")
  for _ in 0..<generations {
    text +=
      #"{"generation":{"requestID":"00000000-0000-0000-0000-000000000000","turnIndex":0,"round":0,"date":0,"#
      + #""storedHistory":[],"stages":[],"sentTranscript":[\#(runs)],"tools":[],"#
      + #""generationOptions":{},"contextOptions":{"includeSchemaInPrompt":true},"output":[],"usage":{},"#
      + #""notes":[],"outcome":{"completed":{}}}}"# + "\n"
  }
  return Data(text.utf8)
}

@Suite("Generation record archive expansion", .timeLimit(.minutes(10)))
struct GenerationRecordArchiveExpansionTests {
  @Test func `a generation naming one large entry past the bound is refused at its line before it is copied`()
    throws
  {
    // 64 KiB named 1,100 times: 70 MB from a file of 70 KB.
    let data = amplifyingFile(entryBytes: 64 << 10, references: 1_100)
    let header = #"{"format":"contextkit.generation-records","version":3}"#.utf8.count + 1
    let entryLine = String(decoding: data, as: UTF8.self).split(separator: "\n")[1].utf8.count + 1
    let error = try #require(throws: GenerationRecordArchive.ReadError.self) {
      try GenerationRecordArchive.decode(data, name: "amplified.jsonl")
    }
    #expect(error.line == 3 && error.byteOffset == header + entryLine)
    #expect(
      error.reason
        == "the generation stands for more than 67108864 bytes "
        + "(GenerationRecordArchive.maximumGenerationExpansion: each reference counts the bytes it names again)"
    )
  }

  @Test func `a generation just under the bound reads, every reference included`() throws {
    let entryLine = 64 * 1024 + 120
    let references = GenerationRecordArchive.maximumGenerationExpansion / entryLine - 2
    let records = try GenerationRecordArchive.decode(
      amplifyingFile(entryBytes: 64 << 10, references: references))
    #expect(records.count == 1 && records[0].sentTranscript.count == references)
  }

  @Test func `the file's total is bounded too: generations under their own bound add up to the file's`()
    throws
  {
    // Each generation stands for 60 MiB; the eighteenth passes 1 GiB.
    let entryLine = (64 << 10) + 120
    let references = (60 << 20) / entryLine
    let data = amplifyingFile(entryBytes: 64 << 10, references: references, generations: 20)
    let error = try #require(throws: GenerationRecordArchive.ReadError.self) {
      try GenerationRecordArchive.decode(data, name: "amplified.jsonl")
    }
    #expect(error.line == 2 + 18)
    #expect(error.reason.contains("past its bound (GenerationRecordArchive.maximumExpansion"))
  }

  @Test func `instructions naming one text 50,000 times are refused at the entry's line`() throws {
    let text = String(repeating: "b", count: 4 << 10)
    var file = #"{"format":"contextkit.generation-records","version":3}"# + "\n"
    file += #"{"text":{"number":0,"value":"\#(text)"}}"# + "\n"
    let segments = Array(repeating: #"{"id":"s","text":0}"#, count: 50_000).joined(separator: ",")
    file += #"{"entry":{"instructions":{"id":"i","segments":[\#(segments)],"tools":[]},"number":0}}"# + "\n"
    let error = try #require(throws: GenerationRecordArchive.ReadError.self) {
      try GenerationRecordArchive.decode(Data(file.utf8), name: "segments.jsonl")
    }
    #expect(error.line == 3)
    #expect(error.reason.hasPrefix("the instructions entry stands for more than 67108864 bytes"))
  }
}
