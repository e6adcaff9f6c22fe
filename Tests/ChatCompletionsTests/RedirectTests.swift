import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Redirect answers from an in-memory server: `http://model.test` redirects
/// as `redirect` says, anything else answers a complete stream.
private func redirectingTransport(
  status: Int = 307, to location: String, from path: String = "/v1/chat/completions"
) -> InMemoryTransport {
  InMemoryTransport { request in
    if request.url.host == "model.test" && request.url.path == path {
      return .init(status: status, headers: ["Location": location])
    }
    return .stream(sseChunk("moved") + sseChunk(finish: "stop") + "data: [DONE]\n\n")
  }
}

/// Redirects `/hop/0` → `/hop/1` → … up to `/hop/<hops>`, which answers a complete stream.
private func hoppingTransport(hops: Int) -> InMemoryTransport {
  InMemoryTransport { request in
    let step = Int(request.url.lastPathComponent) ?? 0
    if request.url.path.hasPrefix("/hop/"), step >= hops {
      return .stream(sseChunk("arrived") + sseChunk(finish: "stop") + "data: [DONE]\n\n")
    }
    return .init(status: 307, headers: ["Location": "/hop/\(step + 1)"])
  }
}

@Suite(.timeLimit(.minutes(10))) struct RedirectTests {
  @Test(.timeLimit(.minutes(10)))
  func `a redirect to another host is refused, names the target, and sends nothing there`() async throws {
    let transport = redirectingTransport(to: "http://elsewhere.test/v1/chat/completions")
    let outcome = try await streamThrough(transport)
    #expect(outcome.chatError?.kind == .redirectRefused, "\(String(describing: outcome.error))")
    #expect(
      outcome.chatError?.message
        == "the server redirected http://model.test/v1/chat/completions to another origin, "
        + "http://elsewhere.test/v1/chat/completions; credentials are only sent to their origin, so the "
        + "redirect was not followed (RedirectPolicy.followCrossOriginWithoutCredentials follows it without them)"
    )
    #expect(transport.requests.map(\.url.host) == ["model.test"])
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: ["https://model.test/v1/chat/completions", "http://model.test:8080/v1/chat/completions"])
  func `another scheme or port is another origin`(location: String) async throws {
    let transport = redirectingTransport(to: location)
    let outcome = try await streamThrough(transport)
    #expect(outcome.chatError?.kind == .redirectRefused, "\(String(describing: outcome.error))")
    #expect(transport.requests.count == 1)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("https://model.test/v1", "https://model.test:443/v2/chat/completions", true),
      ("http://model.test/v1", "http://model.test:80/v2/chat/completions", true),
      ("https://model.test/v1", "https://model.test:80/v2/chat/completions", false),
      ("http://model.test/v1", "http://model.test:443/v2/chat/completions", false),
    ])
  func `an unwritten port is the scheme's default: 443 for https, 80 for http`(
    baseURL: String, location: String, sameOrigin: Bool
  ) async throws {
    let transport = redirectingTransport(to: location)
    let outcome = try await streamThrough(transport, baseURL: baseURL)
    if sameOrigin {
      #expect(outcome.error == nil && outcome.text == "moved", "\(String(describing: outcome.error))")
      #expect(transport.requests.last?.url.absoluteString == location)
    } else {
      #expect(outcome.chatError?.kind == .redirectRefused, "\(String(describing: outcome.error))")
      #expect(transport.requests.count == 1)
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a same-origin redirect is followed with the method, body and credentials`() async throws {
    let transport = redirectingTransport(to: "/v2/chat/completions")
    let outcome = try await streamThrough(transport)
    #expect(outcome.error == nil && outcome.text == "moved")
    let second = try #require(transport.requests.last)
    #expect(transport.requests.count == 2)
    #expect(second.url.absoluteString == "http://model.test/v2/chat/completions")
    #expect(second.method == "POST" && second.body == Data(#"{"stream":true}"#.utf8))
    #expect(second.headers["Authorization"] == "Bearer sk-client-key")
  }

  @Test(.timeLimit(.minutes(10))) func `303 turns the POST into a GET without a body`() async throws {
    let transport = redirectingTransport(status: 303, to: "/v2/result")
    _ = try await streamThrough(transport)
    let second = try #require(transport.requests.last)
    #expect(second.method == "GET" && second.body == nil && second.headers["Content-Type"] == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `opting in follows a cross-origin redirect without any credential`()
    async throws
  {
    let transport = redirectingTransport(to: "http://elsewhere.test/v1/chat/completions")
    let endpoint = EndpointConfiguration(
      baseURL: try #require(URL(string: "http://model.test/v1")), apiKey: "sk-client-key",
      additionalHeaders: ["X-Api-Key": "header-secret", "Cookie": "session=1", "X-Org": "acme"],
      redirectPolicy: .followCrossOriginWithoutCredentials)
    let client = ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(5), transport: transport)
    var text = ""
    for try await chunk in try await client.streamChunks(requestBody: Data("{}".utf8)) {
      text += chunk.choices.first?.delta.content ?? ""
    }
    #expect(text == "moved")
    let second = try #require(transport.requests.last)
    #expect(second.url.host == "elsewhere.test")
    #expect(second.headers["Authorization"] == nil)
    #expect(second.headers["X-Api-Key"] == nil && second.headers["Cookie"] == nil)
    #expect(second.headers["X-Org"] == "acme")
  }

  @Test(.timeLimit(.minutes(10))) func `a redirect loop says so, with the chain`() async throws {
    let transport = redirectingTransport(status: 302, to: "/v1/chat/completions")
    let outcome = try await streamThrough(transport)
    #expect(outcome.chatError?.kind == .tooManyRedirects)
    // The chain reads in the order of the hops: the request, then where it was sent back to.
    #expect(
      outcome.chatError?.message
        == "redirect loop: http://model.test/v1/chat/completions → http://model.test/v1/chat/completions")
  }

  @Test(.timeLimit(.minutes(10))) func `more than five redirects fail`() async throws {
    let transport = InMemoryTransport { request in
      let step = Int(request.url.lastPathComponent) ?? 0
      return .init(status: 307, headers: ["Location": "/hop/\(step + 1)"])
    }
    let outcome = try await streamThrough(transport)
    #expect(outcome.chatError?.kind == .tooManyRedirects)
    // Five hops were followed; the sixth, to /hop/6, was not.
    let hops = (1...6).map { " → http://model.test/hop/\($0)" }.joined()
    #expect(
      outcome.chatError?.message == "more than 5 redirects: http://model.test/v1/chat/completions" + hops)
    #expect(transport.requests.count == 6)
  }

  @Test(
    .timeLimit(.minutes(10)), arguments: ["file:///etc/passwd", "ftp://model.test/x", "gopher://model.test/"])
  func `a redirect to a non-HTTP scheme is refused`(location: String) async throws {
    let transport = redirectingTransport(to: location)
    let outcome = try await streamThrough(transport, redirectPolicy: .followCrossOriginWithoutCredentials)
    #expect(outcome.chatError?.kind == .redirectRefused)
    #expect(transport.requests.count == 1)
  }

  @Test(.timeLimit(.minutes(10))) func `exactly five redirects are followed to the answer`() async throws {
    // The request, then five redirects (/hop/1 … /hop/5): six requests, the last one answered.
    let transport = hoppingTransport(hops: 5)
    let outcome = try await streamThrough(transport)
    #expect(outcome.error == nil, "\(String(describing: outcome.error))")
    #expect(outcome.text == "arrived")
    #expect(transport.requests.count == 6)
    #expect(transport.requests.last?.url.path == "/hop/5")
  }

  @Test(.timeLimit(.minutes(10))) func `a policy of one redirect follows one and refuses the second`()
    async throws
  {
    let one = hoppingTransport(hops: 1)
    let followed = try await streamThrough(one, redirectPolicy: RedirectPolicy(maximumRedirects: 1))
    #expect(followed.error == nil && followed.text == "arrived", "\(String(describing: followed.error))")
    let two = hoppingTransport(hops: 2)
    let refused = try await streamThrough(two, redirectPolicy: RedirectPolicy(maximumRedirects: 1))
    #expect(refused.chatError?.kind == .tooManyRedirects)
    #expect(refused.chatError?.message.hasPrefix("more than 1 redirects") == true)
    #expect(two.requests.count == 2)
  }

  @Test(.timeLimit(.minutes(10))) func `no redirect is followed under never, nor under a negative maximum`()
    async throws
  {
    #expect(RedirectPolicy(maximumRedirects: -3).maximumRedirects == 0)
    for policy in [RedirectPolicy.never, RedirectPolicy(maximumRedirects: -3)] {
      let transport = hoppingTransport(hops: 1)
      let outcome = try await streamThrough(transport, redirectPolicy: policy)
      #expect(outcome.chatError?.kind == .tooManyRedirects, "\(String(describing: outcome.error))")
      #expect(transport.requests.count == 1)
    }
  }

  @Test(.timeLimit(.minutes(10)), arguments: [301, 302, 303, 307, 308])
  func `301, 302 and 303 turn the POST into a GET; 307 and 308 repeat it with its body`(
    status: Int
  ) async throws {
    let transport = redirectingTransport(status: status, to: "/v2/chat/completions")
    let outcome = try await streamThrough(transport)
    #expect(
      outcome.error == nil && outcome.text == "moved", "\(status): \(String(describing: outcome.error))")
    let second = try #require(transport.requests.last)
    #expect(second.url.absoluteString == "http://model.test/v2/chat/completions")
    if status == 307 || status == 308 {
      #expect(second.method == "POST", "\(status)")
      #expect(second.body == Data(#"{"stream":true}"#.utf8), "\(status)")
      #expect(second.headers["Content-Type"] == "application/json", "\(status)")
    } else {
      #expect(second.method == "GET", "\(status)")
      #expect(second.body == nil, "\(status)")
      #expect(second.headers["Content-Type"] == nil, "\(status)")
    }
    #expect(second.headers["Authorization"] == "Bearer sk-client-key", "\(status)")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a redirect status without a Location is the server's answer, not followed`() async throws {
    let transport = InMemoryTransport(.init(status: 302, pieces: [Data("Found".utf8)]))
    let outcome = try await streamThrough(transport)
    #expect(outcome.chatError == ChatCompletionsError(kind: .httpStatus, status: 302, message: "Found"))
    #expect(transport.requests.count == 1)
  }
}
