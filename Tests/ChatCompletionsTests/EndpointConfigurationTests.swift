import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private func url(_ text: String) throws -> URL {
  try #require(URL(string: text))
}

extension ChunkDecoder {
  fileprivate func decodeFailure(_ data: String) -> String {
    do {
      _ = try decode(ServerSentEvent(data: data))
      return "no failure"
    } catch {
      return "\(error)"
    }
  }
}

@Suite(.timeLimit(.minutes(10))) struct EndpointConfigurationTests {
  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
      ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1/chat/completions"),
      ("https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"),
      ("https://api.openai.com/v1/", "https://api.openai.com/v1/chat/completions"),
      ("https://ark.example.com/api/v3", "https://ark.example.com/api/v3/chat/completions"),
      ("https://example.com/openai/v12/", "https://example.com/openai/v12/chat/completions"),
      ("http://localhost:11434/api", "http://localhost:11434/api/v1/chat/completions"),
      ("http://host/proxy/v1beta", "http://host/proxy/v1beta/v1/chat/completions"),
      ("http://host/version", "http://host/version/v1/chat/completions"),
      ("http://host/v", "http://host/v/v1/chat/completions"),
      ("http://host/V2/x?key=1", "http://host/V2/x/chat/completions?key=1"),
    ])
  func `the base URL rule appends what is missing`(base: String, expected: String) throws {
    let endpoint = EndpointConfiguration(baseURL: try url(base))
    #expect(endpoint.chatCompletionsURL.absoluteString == expected)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
      ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080"),
      ("https://ark.example.com/api/v3/", "https://ark.example.com/api"),
    ])
  func `the server root drops the version component`(base: String, expected: String) throws {
    #expect(EndpointConfiguration(baseURL: try url(base)).serverRootURL.absoluteString == expected)
  }

  @Test(.timeLimit(.minutes(10))) func `default headers, then the bearer key, in a stable order`() throws {
    let endpoint = EndpointConfiguration(baseURL: try url("http://h"), apiKey: "sk-test-key")
    let headers = endpoint.requestHeaders
    #expect(headers.fields.map(\.name) == ["Content-Type", "Accept", "User-Agent", "Authorization"])
    #expect(headers["content-type"] == "application/json")
    #expect(headers["ACCEPT"] == "text/event-stream")
    #expect(headers["User-Agent"] == "ContextKit/\(ContextKitVersion.current)")
    #expect(headers["Authorization"] == "Bearer sk-test-key")
  }

  @Test(.timeLimit(.minutes(10)))
  func `additional headers are merged per header, whatever the case of their names`() throws {
    let endpoint = EndpointConfiguration(
      baseURL: try url("http://h"), apiKey: "sk-test-key",
      additionalHeaders: ["user-agent": "MyApp/2", "X-Org": "acme", "authorization": "Token other"])
    let headers = endpoint.requestHeaders
    #expect(headers["Content-Type"] == "application/json")
    #expect(headers["Accept"] == "text/event-stream")
    #expect(headers["User-Agent"] == "MyApp/2")
    #expect(headers["Authorization"] == "Token other")
    #expect(headers["x-org"] == "acme")
    #expect(headers.fields.count == 5)
  }

  @Test(.timeLimit(.minutes(10)))
  func `headers set after creation replace by name in any case, in the literal's order`() throws {
    var endpoint = EndpointConfiguration(baseURL: try url("http://h"), additionalHeaders: ["X-Org": "acme"])
    endpoint.additionalHeaders["x-org"] = "other"
    endpoint.additionalHeaders["USER-AGENT"] = "MyApp/3"
    #expect(endpoint.additionalHeaders.names == ["x-org", "USER-AGENT"])
    #expect(endpoint.requestHeaders["X-Org"] == "other")
    #expect(endpoint.requestHeaders["User-Agent"] == "MyApp/3")
    #expect(endpoint.requestHeaders.fields.count == 4)
    endpoint.additionalHeaders = ["B-Second": "2", "A-First": "1", "b-second": "3"]
    #expect(endpoint.additionalHeaders.names == ["b-second", "A-First"])
    #expect(endpoint.additionalHeaders["B-SECOND"] == "3")
    endpoint.additionalHeaders["a-first"] = nil
    #expect(endpoint.additionalHeaders.names == ["b-second"])
    #expect(endpoint.requestHeaders["A-First"] == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `no key means no Authorization header, and an empty key is no key`()
    throws
  {
    #expect(EndpointConfiguration(baseURL: try url("http://h")).requestHeaders["Authorization"] == nil)
    let empty = EndpointConfiguration(baseURL: try url("http://h"), apiKey: "")
    #expect(empty.apiKey == nil)
    #expect(empty.requestHeaders["Authorization"] == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `the URL request carries the headers, method and body`() throws {
    let endpoint = EndpointConfiguration(
      baseURL: try url("http://h/v1"), apiKey: "sk-test-key", additionalHeaders: ["X-Org": "acme"])
    let request = endpoint.request(
      url: endpoint.chatCompletionsURL, body: Data("{}".utf8), timeouts: ChatCompletionsTimeouts(5))
    #expect(request.method == "POST")
    #expect(request.body == Data("{}".utf8))
    #expect(request.timeouts == ChatCompletionsTimeouts(connect: 5, firstByte: 5, idle: 5))
    #expect(request.headers["authorization"] == "Bearer sk-test-key")
    #expect(request.headers["x-org"] == "acme")
    #expect(request.headers["Accept"] == "text/event-stream")
  }

  @Test(.timeLimit(.minutes(10))) func `the API key never appears in any description`() throws {
    let secret = "sk-live-0123456789abcdef"
    let endpoint = EndpointConfiguration(
      baseURL: try url("https://api.example.com/v1"), apiKey: secret,
      additionalHeaders: ["X-Api-Key": secret, "Proxy-Authorization": "Basic \(secret)"])
    var dumped = ""
    dump(endpoint, to: &dumped)
    var dumpedHeaders = ""
    dump(endpoint.requestHeaders, to: &dumpedHeaders)
    var dumpedKey = ""
    dump(endpoint.apiKey, to: &dumpedKey)
    let texts = [
      endpoint.description, endpoint.debugDescription, String(describing: endpoint),
      String(reflecting: endpoint),
      "\(endpoint)", dumped, endpoint.requestHeaders.description, endpoint.requestHeaders.debugDescription,
      dumpedHeaders, String(describing: endpoint.apiKey), String(reflecting: endpoint.apiKey), dumpedKey,
      "\(endpoint.additionalHeaders)", String(describing: Mirror(reflecting: endpoint).children.map(\.value)),
    ]
    for text in texts {
      #expect(!text.contains(secret), "leaked in: \(text)")
    }
    #expect(endpoint.description.contains("api.example.com"))
    #expect(endpoint.description.contains("<redacted>"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a description shows the base URL, whether there is a key, and the header names`()
    throws
  {
    let keyless = EndpointConfiguration(baseURL: try url("http://127.0.0.1:8080"))
    #expect(
      keyless.description
        == "EndpointConfiguration(baseURL: http://127.0.0.1:8080, apiKey: none, additionalHeaders: [])")
    let keyed = EndpointConfiguration(
      baseURL: try url("https://api.example.com/v1"), apiKey: "sk-test-key",
      additionalHeaders: ["X-Org": "acme"])
    #expect(
      keyed.description
        == "EndpointConfiguration(baseURL: https://api.example.com/v1, apiKey: <redacted>, additionalHeaders: [X-Org])"
    )
  }

  @Test(.timeLimit(.minutes(10))) func `errors built for this endpoint never show the key`() throws {
    let secret = "sk-live-0123456789abcdef"
    let endpoint = EndpointConfiguration(baseURL: try url("http://h"), apiKey: secret)
    let mapper = ErrorMapper(redaction: endpoint.redaction)
    let failure = mapper.failure(
      status: 401, headers: HTTPHeaderFields(),
      body: Data(
        #"{"error":{"message":"bad key \#(secret)","type":"auth \#(secret)","code":"\#(secret)"}}"#.utf8))
    let chunkFailure = ChunkDecoder(mapper: mapper).decodeFailure(#"{"broken \#(secret)"#)
    for text in [
      "\(failure)", failure.error.description, String(reflecting: failure), "\(chunkFailure)",
    ] {
      #expect(!text.contains(secret), "leaked in: \(text)")
    }
  }

  @Test(.timeLimit(.minutes(10))) func `header fields compare and hash without regard to name case`() {
    let lower = HTTPHeaderFields(["accept": "a"])
    let upper = HTTPHeaderFields(["Accept": "a"])
    #expect(lower == upper)
    #expect(Set([lower, upper]).count == 1)
    var removing = upper
    removing["ACCEPT"] = nil
    #expect(removing.fields.isEmpty)
  }

  @Test(.timeLimit(.minutes(10))) func `configurations that differ only in the key are different`() throws {
    let base = try url("http://h")
    #expect(
      EndpointConfiguration(baseURL: base, apiKey: "a1234")
        != EndpointConfiguration(baseURL: base, apiKey: "b1234"))
    #expect(
      EndpointConfiguration(baseURL: base, apiKey: "a1234")
        == EndpointConfiguration(baseURL: base, apiKey: "a1234"))
  }
}
