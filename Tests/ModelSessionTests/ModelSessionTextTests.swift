import Foundation
import Testing

@testable import ModelSession

/// The texts ModelSession writes for people, each written out by hand and
/// checked whole: the session's errors and the messages of its notes.
/// Behaviour tests compare data (error cases, note fields), not these texts.
@Suite(.timeLimit(.minutes(10))) struct ModelSessionTextTests {
  /// The text of the session's errors, written out by hand: what went wrong and what to do.
  @Suite("Session error texts") struct SessionErrors {
    @Test func `each session error says what went wrong and, where it can, what to do`() {
      typealias SessionError = LanguageModelSession.SessionError
      #expect(
        SessionError.concurrentRequests.description
          == "the session is already responding; wait for the current turn (check isResponding) before sending another"
      )
      #expect(
        SessionError.toolRoundLimitExceeded(limit: 8).description
          == "the model called tools in 8 rounds without answering; raise maximumToolRounds or check the tools"
      )
      #expect(
        SessionError.schemaMismatch(schemaName: "Weather", reason: "$.city: missing").description
          == #"the response does not follow schema "Weather": $.city: missing"#)
      #expect(
        SessionError.decodingFailure("not JSON").description == "the response could not be decoded: not JSON")
      #expect(
        SessionError.duplicateToolName("search").description
          == #"two tools are named "search"; tool names must be unique in a session"#)
      #expect(
        SessionError.invalidProfileEntry(reason: "a second instructions entry").description
          == "the profile appended an entry the transcript cannot hold: a second instructions entry")
      #expect(
        SessionError.noModel.description
          == "the profile names no model and the session was created without one; add .model(_:) to the profile"
      )
    }

    @Test func `a model error reads as its case, then the provider's explanation`() {
      let explanation = "9000 tokens, more than the 8192 the model takes"
      #expect(
        LanguageModelError.contextSizeExceeded(
          .init(contextSize: 8192, tokenCount: 9000, debugDescription: explanation)
        ).description == "contextSizeExceeded: " + explanation)
      #expect(
        LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "slow down")).description
          == "rateLimited: slow down")
      #expect(
        LanguageModelError.guardrailViolation(.init(debugDescription: "flagged")).description
          == "guardrailViolation: flagged")
    }
  }

  /// The messages of the notes ModelSession writes, rendered from their fields;
  /// behaviour tests compare the fields.
  @Suite("Generation note texts") struct GenerationNotes {
    @Test func `a context overflow recovery gives the model's numbers and its words`() {
      let overflow = ContextOverflow(
        contextSize: 2_048, promptTokenCount: 2_300, reservedResponseTokens: 100,
        refusedTranscript: Transcript(),
        message: "maximum context length is 2048 tokens")
      #expect(
        ContextOverflowRecovery.note(for: overflow).message
          == "the model refused a prompt of 2300 tokens for a window of 2048 tokens, with 100 tokens reserved "
          + "for the response (maximum context length is 2048 tokens); compacted the history and retried once"
      )
      let unknown = ContextOverflow(
        contextSize: nil, promptTokenCount: nil, reservedResponseTokens: 0, refusedTranscript: Transcript(),
        message: "too long")
      #expect(
        ContextOverflowRecovery.note(for: unknown).message
          == "the model refused the prompt for a window of unknown size (too long); "
          + "compacted the history and retried once")
    }

    @Test func `an item left out says its key, its tokens and why, with the number`() {
      func message(_ reason: Reattachment.LeftOut.Reason) -> String {
        Reattachment.LeftOut(key: "skill:b", tokens: 215, reason: reason).note(source: "mine").message
      }
      let head = "\"skill:b\" (215 tokens) was not put back after the cut: "
      #expect(message(.noRoom(room: 120)) == head + "the history after the cut leaves room for only 120 more")
      #expect(
        message(.overShare(share: 150)) == head
          + "the re-attached context would pass its share of what the cut keeps (150)")
      #expect(
        message(.overItemLimit(limit: 150)) == head + "it is larger than the limit of 150 tokens for one item"
      )
    }

    @Test func `what was put back is named with its size`() {
      let note = GenerationNote(
        source: "mine", kind: .information, message: "", names: [.putBack: ["skill:a", "skill:c"]],
        counts: [.kept: 130])
      #expect(
        Reattachment.putBackMessage(for: note)
          == "put back after the cut: \"skill:a\", \"skill:c\" (130 of the budget)")
    }
  }
}
