import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// Builds a random conversation generation by generation, as a session
/// would: a prompt, then tool loops (calls, large outputs), reasoning, and an
/// answer. `generationPoints` gives the history before each generation.
struct RandomConversation {
  /// The history before each generation, and the entries that generation produced.
  var generations: [(history: [Transcript.Entry], output: [Transcript.Entry])] = []

  /// A conversation of `turns` turns whose every turn, with the instructions,
  /// stays under `turnLimit` estimated tokens (so that a budget above it can hold).
  init(seed: UInt64, turns: Int, instructionsWords: Int, turnLimit: Int) {
    var random = SeededGenerator(seed: seed)
    var history: [Transcript.Entry] = [instructionsEntry(words(instructionsWords, tag: "i"))]
    let counter = EstimatingTokenCounter()
    let instructionsTokens = counter.tokenCount(of: history[0])
    for turn in 0..<turns {
      var turnTokens = instructionsTokens
      func fits(_ entry: Transcript.Entry) -> Bool {
        turnTokens + counter.tokenCount(of: entry) + 64 <= turnLimit
      }
      let prompt = promptEntry(words(Int.random(in: 1...40, using: &random), tag: "t\(turn)p"))
      history.append(prompt)
      turnTokens += counter.tokenCount(of: prompt)
      var round = 0
      while Int.random(in: 0..<3, using: &random) == 0, round < 4 {
        // Unique across conversations: token counts are cached by entry id.
        let callID = "c\(seed).\(turn).\(round)"
        let calls = Transcript.Entry.toolCalls(
          Transcript.ToolCalls([
            Transcript.ToolCall(id: callID, toolName: "search", arguments: GeneratedContent(properties: [:]))
          ]))
        let output = Transcript.Entry.toolOutput(
          Transcript.ToolOutput(
            id: callID, toolName: "search",
            segments: [textSegment(words(Int.random(in: 5...150, using: &random), tag: "o\(callID)-"))]))
        guard fits(calls),
          turnTokens + counter.tokenCount(of: calls) + counter.tokenCount(of: output) + 64 <= turnLimit
        else { break }
        generations.append((history, [calls]))
        history.append(calls)
        history.append(output)
        turnTokens += counter.tokenCount(of: calls) + counter.tokenCount(of: output)
        round += 1
      }
      var output: [Transcript.Entry] = []
      if Bool.random(using: &random) {
        let reasoning = Transcript.Entry.reasoning(
          Transcript.Reasoning(segments: [
            textSegment(words(Int.random(in: 1...30, using: &random), tag: "z"))
          ]))
        if fits(reasoning) {
          output.append(reasoning)
          turnTokens += counter.tokenCount(of: reasoning)
        }
      }
      let answerWords = max(
        1, min(Int.random(in: 1...120, using: &random), (turnLimit - turnTokens - 64) / 2))
      output.append(responseEntry(words(answerWords, tag: "t\(turn)a")))
      generations.append((history, output))
      history += output
    }
  }
}
