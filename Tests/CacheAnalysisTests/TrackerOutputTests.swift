import Foundation
import ModelSession
import TestSupport
import Testing

@testable import CacheAnalysis

/// What `CacheImpactTracker` takes as the previous generation's output, on
/// its two paths: a history that extends the previous request (append only),
/// and one that a modifier before it rewrote.
@Suite(.timeLimit(.minutes(10)))
struct TrackerOutputTests {
  private let instructions = instructionsEntry("You help.")
  private let p0 = promptEntry("first question")
  private let r0 = responseEntry("first answer")
  private let p1 = promptEntry("second question")
  private let r1 = responseEntry("second answer")
  private let p2 = promptEntry("third question")

  private func calls(_ callID: String) -> Transcript.Entry {
    .toolCalls(
      Transcript.ToolCalls([
        Transcript.ToolCall(id: callID, toolName: "search", arguments: GeneratedContent(properties: [:]))
      ]))
  }

  private func output(_ callID: String) -> Transcript.Entry {
    .toolOutput(Transcript.ToolOutput(id: callID, toolName: "search", segments: [textSegment("found")]))
  }

  private func ids(_ entries: [Transcript.Entry]) -> [String] {
    entries.map(\.id)
  }

  @Test func `an extended history gives the model's entries right after the previous request`() {
    let previous = [instructions, p0]
    #expect(ids(CacheImpactTracker.output(after: previous, in: [instructions, p0, r0, p1])) == [r0.id])
    let call = calls("c1")
    #expect(
      ids(CacheImpactTracker.output(after: previous, in: [instructions, p0, call, output("c1")])) == [call.id]
    )
  }

  @Test func `a history rewritten before the modifier gives the output before the trailing prompt`() {
    // A rolling window dropped p0 and r0: the history no longer starts with the previous request.
    let previous = [instructions, p0, r0, p1]
    #expect(ids(CacheImpactTracker.output(after: previous, in: [instructions, p1, r1, p2])) == [r1.id])
    // Trailing tool output is input too: the call before it is the output.
    let call = calls("c2")
    #expect(
      ids(CacheImpactTracker.output(after: previous, in: [instructions, p1, call, output("c2")])) == [call.id]
    )
  }

  @Test func `after a rewrite, model entries the previous request already had are not new output`() {
    // The previous request ended in a tool round; a modifier then dropped the tool output,
    // so the earlier call now sits right before the new answer.
    let call = calls("c3")
    let previous = [instructions, p0, call, output("c3")]
    #expect(ids(CacheImpactTracker.output(after: previous, in: [instructions, p0, call, r0, p1])) == [r0.id])
  }
}
