import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Redirect targets a hostile server would try, from an in-memory server at
/// `http://model.test`: another host spelled to look like this one, user info,
/// a scheme-relative path, another port or scheme, and secrets in the target.
/// Every request to `model.test` other than the chat completions path, and
/// every other host, answers a complete stream.
private func redirecting(
  status: Int = 307, to location: String, from path: String = "/v1/chat/completions"
) -> InMemoryTransport {
  InMemoryTransport { request in
    if request.url.host == "model.test" && request.url.path == path {
      return .init(status: status, headers: ["Location": location])
    }
    return .stream(sseChunk("moved") + sseChunk(finish: "stop") + "data: [DONE]\n\n")
  }
}

@Suite(.timeLimit(.minutes(10)))
struct RedirectVariantTests {
  @Test(arguments: [
    "//elsewhere.test/v1/chat/completions",
    "http://model.test@elsewhere.test/v1/chat/completions",
    "http://model.test:80@elsewhere.test/v1/chat/completions",
    "http://elsewhere.test#@model.test/v1/chat/completions",
    "http://elsewhere.test?@model.test/",
    "http://model.test.elsewhere.test/v1/chat/completions",
    "http://127.0.0.1/v1/chat/completions",
    "https://model.test/v1/chat/completions",
    "http://model.test:81/v1/chat/completions",
    "http://[::1]/v1/chat/completions",
  ])
  func `a target on another origin, however spelled, is refused and sent nothing`(
    location: String
  ) async throws {
    for status in [301, 302, 303, 307, 308] {
      let transport = redirecting(status: status, to: location)
      let outcome = try await streamThrough(transport)
      #expect(
        outcome.chatError?.kind == .redirectRefused,
        "\(status) \(location): \(String(describing: outcome.error))")
      #expect(transport.requests.count == 1, "\(status) \(location) was followed")
    }
  }

  @Test(arguments: [
    "http://MODEL.TEST/v2/chat/completions", "HTTP://model.test:80/v2/chat/completions",
    "http://model.test/v1/../v2/chat/completions", "/v2/chat/completions", "v2",
  ])
  func `the same origin spelled differently is followed with the credential`(location: String) async throws {
    let transport = redirecting(to: location)
    let outcome = try await streamThrough(transport)
    #expect(outcome.error == nil && outcome.text == "moved", "\(String(describing: outcome.error))")
    #expect(transport.requests.count == 2)
    #expect(transport.requests.last?.headers["Authorization"] == "Bearer sk-client-key")
  }

  @Test func `a key the server puts in the target's user info, path or query is not in the error`()
    async throws
  {
    for location in [
      "http://sk-client-key@elsewhere.test/x", "http://u:sk-client-key@elsewhere.test/x",
      "http://elsewhere.test/sk-client-key", "http://elsewhere.test/x?api_key=sk-client-key",
      "http://elsewhere.test/x?foo=sk-client-key",
    ] {
      let outcome = try await streamThrough(redirecting(to: location))
      let error = try #require(outcome.chatError, "\(location)")
      #expect(error.kind == .redirectRefused)
      for text in [error.message, error.description, String(reflecting: error)] {
        #expect(!text.contains("sk-client-key"), "\(location): \(text)")
      }
      #expect(error.message.contains("elsewhere.test"), "the target's host is named: \(error.message)")
    }
  }

  @Test func `after crossing to another origin, returning to this one does not bring the credential back`()
    async throws
  {
    let transport = InMemoryTransport { request in
      switch (request.url.host, request.url.path) {
      case ("model.test", "/v1/chat/completions"):
        return .init(status: 307, headers: ["Location": "http://elsewhere.test/bounce"])
      case ("elsewhere.test", _):
        return .init(status: 307, headers: ["Location": "http://model.test/v2/chat/completions"])
      default:
        return .stream(sseChunk("back") + sseChunk(finish: "stop") + "data: [DONE]\n\n")
      }
    }
    let outcome = try await streamThrough(transport, redirectPolicy: .followCrossOriginWithoutCredentials)
    #expect(outcome.text == "back", "\(String(describing: outcome.error))")
    #expect(transport.requests.map { $0.url.host ?? "" } == ["model.test", "elsewhere.test", "model.test"])
    #expect(transport.requests.dropFirst().allSatisfy { $0.headers["Authorization"] == nil })
  }

  @Test func `a cross-origin redirect followed on request leaves the base URL's user info and query behind`()
    async throws
  {
    let transport = redirecting(to: "http://elsewhere.test/v1/chat/completions")
    let outcome = try await streamThrough(
      transport, baseURL: "http://user:url-secret@model.test/v1?api_key=query-secret",
      redirectPolicy: .followCrossOriginWithoutCredentials)
    #expect(outcome.text == "moved", "\(String(describing: outcome.error))")
    let followed = try #require(transport.requests.last)
    #expect(followed.url.host == "elsewhere.test")
    #expect(!followed.url.absoluteString.contains("url-secret"))
    #expect(!followed.url.absoluteString.contains("query-secret"))
    #expect(followed.headers["Authorization"] == nil)
  }
}
