import Foundation
import ModelSession
import Testing

/// The text of the session's errors, written out by hand: what went wrong and what to do.
@Suite("Session error texts", .timeLimit(.minutes(10))) struct SessionErrorTextTests {
  @Test func `each session error says what went wrong and, where it can, what to do`() {
    typealias SessionError = LanguageModelSession.SessionError
    #expect(
      SessionError.concurrentRequests.description
        == "the session is already responding; wait for the current turn (check isResponding) before sending another"
    )
    #expect(
      SessionError.toolRoundLimitExceeded(limit: 8).description
        == "the model called tools in 8 rounds without answering; raise maximumToolRounds or check the tools")
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
