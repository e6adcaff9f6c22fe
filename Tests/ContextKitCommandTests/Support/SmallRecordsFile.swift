import Foundation
import ModelSession
import TestSupport

/// `count` bytes of text: with the estimating counter, `count / 4` tokens plus 4 of framing per entry.
func letters(_ count: Int, _ letter: Character) -> Transcript.Segment {
  .text(Transcript.TextSegment(content: String(repeating: letter, count: count)))
}

/// Three generations: a cold start (38 tokens), an append (86 tokens, 72 shared), and a history
/// rewrite that drops the first turn (56 tokens, 14 shared), written as `records.json` in `folder`.
func smallRecordsFile(in folder: TemporaryFolder) throws -> URL {
  let instructions = Transcript.Entry.instructions(
    Transcript.Instructions(segments: [letters(40, "i")], toolDefinitions: []))
  let prompt1 = Transcript.Entry.prompt(Transcript.Prompt(segments: [letters(80, "p")]))
  let response1 = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [letters(120, "r")]))
  let prompt2 = Transcript.Entry.prompt(Transcript.Prompt(segments: [letters(40, "q")]))
  let response2 = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [letters(40, "s")]))
  let prompt3 = Transcript.Entry.prompt(Transcript.Prompt(segments: [letters(40, "t")]))
  let records = [
    record(sent: [instructions, prompt1], output: [response1], turn: 0),
    record(sent: [instructions, prompt1, response1, prompt2], output: [response2], turn: 1),
    record(sent: [instructions, prompt2, response2, prompt3], output: [], turn: 2),
  ]
  let url = folder.url("records.json")
  try JSONEncoder().encode(records).write(to: url)
  return url
}
