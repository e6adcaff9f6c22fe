import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// The caps on server text in errors, each pinned exactly at the cap (kept
/// whole, no ellipsis) and one character past it (cut to the cap, then `…`).
@Suite(.timeLimit(.minutes(10)))
struct ErrorTextLimitTests {
  private let mapper = ErrorMapper(redaction: Redaction(secrets: []))

  @Test func `a server message of exactly 2,000 characters is kept whole, one more is cut to 2,000`() {
    // ErrorMapper.messageLimit: 2,000 characters of server text.
    let atCap = String(repeating: "m", count: 2_000)
    let kept = mapper.failure(status: 500, headers: HTTPHeaderFields(), body: Data(atCap.utf8))
    #expect(kept.error.message == atCap)
    let cut = mapper.failure(status: 500, headers: HTTPHeaderFields(), body: Data((atCap + "n").utf8))
    #expect(cut.error.message == atCap + "…")
    // The same cap for the message inside an error object.
    let envelope = #"{"error":{"message":""# + atCap + #"n"}}"#
    let fromEnvelope = mapper.failure(status: 500, headers: HTTPHeaderFields(), body: Data(envelope.utf8))
    #expect(fromEnvelope.error.message == atCap + "…")
  }

  @Test func `a server type or code of exactly 200 characters is kept whole, one more is cut to 200`() {
    // ErrorMapper.fieldLimit: 200 characters.
    let atCap = String(repeating: "t", count: 200)
    let body = #"{"error":{"message":"boom","type":""# + atCap + #"","code":""# + atCap + #"c"}}"#
    let failure = mapper.failure(status: 500, headers: HTTPHeaderFields(), body: Data(body.utf8))
    #expect(failure.error.type == atCap)
    #expect(failure.error.code == atCap + "…")
  }

  @Test func `an error leaves the module with at most 4,096 characters of message`() {
    // ChatCompletionsError.messageLimit: 4,096 characters after the last redaction pass.
    let atCap = String(repeating: "e", count: 4_096)
    let redaction = Redaction(secrets: [])
    let kept = ChatCompletionsError(kind: .httpStatus, message: atCap).redacted(by: redaction)
    #expect(kept.message == atCap)
    let cut = ChatCompletionsError(kind: .httpStatus, message: atCap + "f").redacted(by: redaction)
    #expect(cut.message == atCap + "…")
    // Its type and code keep ErrorMapper.fieldLimit, 200 characters.
    let field = String(repeating: "k", count: 200)
    let fields = ChatCompletionsError(kind: .httpStatus, message: "m", type: field, code: field + "k")
      .redacted(by: redaction)
    #expect(fields.type == field && fields.code == field + "…")
  }

  @Test func `an unexpected body's excerpt keeps exactly 300 characters, one more is cut to 300`() throws {
    // EventStreamContentCheck.excerptLimit: 300 characters of the body.
    let url = try #require(URL(string: "http://model.test/v1/chat/completions"))
    let atCap = String(repeating: "h", count: 300)
    let kept = EventStreamContentCheck.message(
      status: 200, contentType: "text/plain", url: url, body: ErrorBody(data: Data(atCap.utf8)),
      mapper: mapper)
    #expect(kept.hasSuffix("; the body starts: " + atCap))
    let cut = EventStreamContentCheck.message(
      status: 200, contentType: "text/plain", url: url, body: ErrorBody(data: Data((atCap + "i").utf8)),
      mapper: mapper)
    #expect(cut.hasSuffix("; the body starts: " + atCap + "…"))
  }
}
