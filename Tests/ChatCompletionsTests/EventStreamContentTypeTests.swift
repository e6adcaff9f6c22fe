import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Which `Content-Type` of a 2xx answer counts as an event stream: the
/// header absent (some servers send none), or `text/event-stream` in any
/// case and with any parameters. Anything else is an `unexpectedContentType`
/// error whose hint says what kind of document came back.
@Suite(.timeLimit(.minutes(10)))
struct EventStreamContentTypeTests {
  private static let completeStream =
    sseChunk("Hello") + sseChunk(finish: "stop") + "data: [DONE]\n\n"

  /// Streams one request whose 200 answer has these headers and `body`.
  private func outcome(headers: [String: String], body: String = completeStream) async throws -> ClientOutcome
  {
    try await streamThrough(InMemoryTransport(.init(headers: headers, pieces: [Data(body.utf8)])))
  }

  @Test func `an answer without a Content-Type is read as an event stream`() async throws {
    let result = try await outcome(headers: [:])
    #expect(result.error == nil, "\(String(describing: result.error))")
    #expect(result.text == "Hello")
  }

  @Test(arguments: [
    "text/event-stream", "text/event-stream; charset=utf-8", "text/event-stream;charset=UTF-8",
    " text/event-stream ; charset=utf-8",
  ])
  func `text/event-stream with parameters is an event stream`(contentType: String) async throws {
    let result = try await outcome(headers: ["Content-Type": contentType])
    #expect(result.error == nil, "\(contentType): \(String(describing: result.error))")
    #expect(result.text == "Hello", "\(contentType)")
  }

  @Test(arguments: ["Text/Event-Stream", "TEXT/EVENT-STREAM; charset=utf-8"])
  func `the media type is compared without regard to case`(contentType: String) async throws {
    let result = try await outcome(headers: ["Content-Type": contentType])
    #expect(result.error == nil, "\(contentType): \(String(describing: result.error))")
    #expect(result.text == "Hello", "\(contentType)")
  }

  @Test func `a whole JSON completion instead of a stream asks whether the server streams`() async throws {
    // A server that ignores "stream": true answers one JSON completion.
    let completion =
      #"{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"content":"Hi"}}]}"#
    let result = try await outcome(headers: ["Content-Type": "application/json"], body: completion)
    let error = try #require(result.chatError, "\(String(describing: result.error))")
    #expect(error.kind == .unexpectedContentType)
    #expect(
      error.message.hasPrefix(
        #"the server answered 200 with Content-Type application/json instead of text/event-stream "#
          + #"(a JSON document: does the server support "stream": true?), at http://model.test/"#))
  }

  @Test func `another type gets no hint`() async throws {
    let result = try await outcome(headers: ["Content-Type": "text/plain"], body: "hello")
    let error = try #require(result.chatError, "\(String(describing: result.error))")
    #expect(error.kind == .unexpectedContentType)
    #expect(
      error.message
        == "the server answered 200 with Content-Type text/plain instead of text/event-stream, "
        + "at http://model.test/v1/chat/completions; the body starts: hello")
  }
}
