import ChatCompletions
import Foundation
import ModelSession
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request itself with a short event stream, and keeps what it was asked.
final class CannedEventStreamProtocol: URLProtocol {
  static let requests = Mutex<[URLRequest]>([])

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    Self.requests.withLock { $0.append(request) }
    let body =
      #"data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"#
      + #""delta":{"content":"from the protocol"},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
    guard let url = request.url,
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "text/event-stream"])
    else { return }
    client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    client?.urlProtocol(self, didLoad: Data(body.utf8))
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}
}

@Suite("A chat completions model over a caller's URLSession", .serialized, .timeLimit(.minutes(10)))
struct ChatCompletionsLanguageModelTests {
  @Test func `a URLSession configuration given to the model carries its requests, with its protocol classes`()
    async throws
  {
    CannedEventStreamProtocol.requests.withLock { $0.removeAll() }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CannedEventStreamProtocol.self]
    let model = ChatCompletionsLanguageModel(
      name: "canned", url: try #require(URL(string: "https://no-such-host.invalid/v1")),
      additionalHeaders: ["X-Team": "ios"], supportsGuidedGeneration: true,
      urlSessionConfiguration: configuration)
    #expect(model.urlSession != nil)
    #expect(model.additionalHeaders == ["X-Team": "ios"])
    let answer = try await LanguageModelSession(model: model).respond(to: "hi")
    #expect(answer.content == "from the protocol")
    let requests = CannedEventStreamProtocol.requests.withLock { $0 }
    #expect(requests.count == 1)
    #expect(requests.first?.url?.path == "/v1/chat/completions")
    #expect(requests.first?.value(forHTTPHeaderField: "X-Team") == "ios")
    #expect(requests.first?.value(forHTTPHeaderField: "Content-Type") == "application/json")
  }

  @Test func `a URLSession set on the model afterwards is used the same way`() async throws {
    CannedEventStreamProtocol.requests.withLock { $0.removeAll() }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CannedEventStreamProtocol.self]
    var model = ChatCompletionsLanguageModel(
      name: "canned", url: try #require(URL(string: "https://no-such-host.invalid/v1")))
    #expect(model.urlSession == nil)
    model.urlSession = URLSession(configuration: configuration)
    model.additionalHeaders["Authorization"] = "Bearer sk-test"
    let answer = try await LanguageModelSession(model: model).respond(to: "hi")
    #expect(answer.content == "from the protocol")
    let request = try #require(CannedEventStreamProtocol.requests.withLock { $0.first })
    #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer sk-test")
    #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
  }
}
