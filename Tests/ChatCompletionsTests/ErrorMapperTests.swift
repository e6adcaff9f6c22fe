import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let now = Date(timeIntervalSince1970: 1_000_000)

private var mapper: ErrorMapper {
  var mapper = ErrorMapper(redaction: Redaction(secrets: ["sk-secret-123"]))
  mapper.now = { now }
  return mapper
}

private func failure(_ status: Int, _ body: String, headers: [String: String] = [:]) -> ChatCompletionsFailure
{
  mapper.failure(status: status, headers: HTTPHeaderFields(headers), body: Data(body.utf8))
}

@Suite(.timeLimit(.minutes(10))) struct ErrorMapperTests {
  @Test(.timeLimit(.minutes(10))) func `429 is a rate limit with the Retry-After seconds`() {
    let result = failure(
      429, #"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#,
      headers: ["retry-after": "30"])
    guard case .rateLimited(let resetDate, let error) = result else {
      Issue.record("expected a rate limit, got \(result)")
      return
    }
    #expect(resetDate == now.addingTimeInterval(30))
    #expect(error.status == 429 && error.message == "slow down" && error.code == "rate_limit_exceeded")
    // 1,000,030 s after the epoch is 12 January 1970, 13:47:10 GMT.
    #expect(
      result.description
        == "rate limited until 1970-01-12 13:47:10 +0000 "
        + "(chat completions httpStatus, HTTP 429, type requests, code rate_limit_exceeded: slow down)")
  }

  @Test(.timeLimit(.minutes(10))) func `Retry-After as an HTTP date and retry-after-ms are read`() {
    guard
      case .rateLimited(let dated, _) = failure(
        429, "", headers: ["Retry-After": "Mon, 12 Jan 1970 14:06:40 GMT"])
    else {
      Issue.record("expected a rate limit")
      return
    }
    // 20 minutes after `now` (1,000,000 s after the epoch is Monday 12 January 1970, 13:46:40 GMT).
    #expect(dated == Date(timeIntervalSince1970: 1_001_200))
    guard case .rateLimited(let milliseconds, _) = failure(429, "", headers: ["retry-after-ms": "1500"])
    else {
      Issue.record("expected a rate limit")
      return
    }
    #expect(milliseconds == now.addingTimeInterval(1.5))
    guard case .rateLimited(let none, _) = failure(429, "", headers: ["Retry-After": "soon"]) else {
      Issue.record("expected a rate limit")
      return
    }
    #expect(none == nil)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      #"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
      #"{"error":{"message":"Requested tokens (5000) exceed context window of 4096","type":"internal_server_error"}}"#,
    ])
  func `context length messages are context size failures with their numbers`(body: String) {
    let result = failure(400, body)
    guard case .contextSizeExceeded(let contextSize, let tokenCount, _) = result else {
      Issue.record("expected a context size failure, got \(result)")
      return
    }
    #expect([8192, 4096].contains(contextSize))
    #expect([9000, 5000].contains(tokenCount))
  }

  @Test(.timeLimit(.minutes(10))) func `a context size failure reads with its tokens and the context size`() {
    let result = failure(
      400,
      #"{"error":{"message":"Requested tokens (5000) exceed context window of 4096","type":"invalid_request_error"}}"#
    )
    #expect(
      result.description
        == "context size exceeded with 5000 tokens (context 4096) (chat completions httpStatus, HTTP 400, "
        + "type invalid_request_error: Requested tokens (5000) exceed context window of 4096)")
  }

  @Test(.timeLimit(.minutes(10))) func `content filter errors are guardrail violations`() {
    let result = failure(400, #"{"error":{"message":"The response was filtered","code":"content_filter"}}"#)
    guard case .guardrailViolation = result else {
      Issue.record("expected a guardrail violation, got \(result)")
      return
    }
  }

  @Test(.timeLimit(.minutes(10))) func `408 and 504 are timeouts`() {
    // By status, whatever the body says (an empty body would be classified by
    // its status text, "Gateway Timeout", and hide a missing status check).
    for status in [408, 504] {
      for body in ["", "upstream did not answer", #"{"error":{"message":"upstream closed the connection"}}"#]
      {
        guard case .timeout(let error) = failure(status, body) else {
          Issue.record("expected a timeout for \(status) with the body \(body)")
          continue
        }
        #expect(error.status == status)
      }
    }
  }

  @Test(.timeLimit(.minutes(10))) func `other statuses keep the server's message, type and code`() {
    let result = failure(500, #"{"error":{"message":"boom","type":"server_error","code":"internal"}}"#)
    #expect(
      result
        == .other(
          .init(kind: .httpStatus, status: 500, message: "boom", type: "server_error", code: "internal")))
    // The one-line text labels each part: the kind, then HTTP, type and code, then the message.
    #expect(
      result.error.description
        == "chat completions httpStatus, HTTP 500, type server_error, code internal: boom")
    #expect(failure(503, "Service Unavailable\n").error.message == "Service Unavailable")
    #expect(failure(404, "").error.message.contains("not found"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `transport failures map to timeouts with their stage, cancellation and connection failures`() {
    #expect(
      mapper.failure(transportError: TransportFailure.idleTimeout(seconds: 3, url: "http://h/v1"))
        as? ChatCompletionsFailure
        == .timeout(
          .init(
            kind: .timedOut,
            message: "http://h/v1 sent nothing for 3 s (the idle timeout) in the middle of its answer",
            timeoutStage: .idle)))
    let idle = mapper.failure(transportError: TransportFailure.idleTimeout(seconds: 3, url: "http://h/v1"))
    #expect(
      (idle as? ChatCompletionsFailure)?.error.description
        == "chat completions timedOut, idle timeout: http://h/v1 sent nothing for 3 s (the idle timeout) in the middle of its answer"
    )
    #expect(mapper.failure(transportError: CancellationError()) is CancellationError)
    let lost =
      mapper.failure(transportError: TransportFailure.connectionFailed("reset")) as? ChatCompletionsFailure
    #expect(lost?.error.kind == .connectionFailed)
    let redirect = mapper.failure(
      transportError: TransportFailure.crossOriginRedirect(from: "http://a", to: "http://b"))
    #expect((redirect as? ChatCompletionsFailure)?.error.kind == .redirectRefused)
  }

  @Test(.timeLimit(.minutes(10))) func `an empty body is described by its status, in words`() {
    let expected = [
      400: "bad request", 401: "unauthorized (check the API key)", 403: "forbidden",
      404: "not found (check the base URL and the model name)", 408: "request timeout",
      413: "request too large",
      422: "unprocessable request", 429: "too many requests", 500: "internal server error",
      502: "bad gateway",
      503: "service unavailable", 504: "gateway timeout", 418: "HTTP status 418", 599: "HTTP status 599",
    ]
    for (status, text) in expected {
      #expect(failure(status, "").error.message == text, "\(status)")
      // A body of whitespace alone says nothing either.
      #expect(failure(status, " \r\n").error.message == text, "\(status)")
    }
  }

  @Test(.timeLimit(.minutes(10))) func `server text that echoes the key is redacted`() {
    let result = failure(
      401, #"{"error":{"message":"Incorrect API key provided: sk-secret-123","code":"sk-secret-123"}}"#)
    #expect(!"\(result)".contains("sk-secret-123"))
    #expect(result.error.message.contains("<redacted>"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a body cut at its limit in the middle of the key does not show the key's start; a whole body does`() {
    // "sk-sec" is the first six characters of the key "sk-secret-123": at the end of a body the
    // client stopped reading, it may be a key cut in two; at the end of a whole body it is not.
    let text = "upstream failed for sk-sec"
    let cut = mapper.failure(
      status: 502, headers: HTTPHeaderFields([:]),
      body: ErrorBody(data: Data(text.utf8), stop: .sizeLimit(26)))
    #expect(cut.error.message.hasPrefix("upstream failed for <redacted> (the body was cut off at "))
    #expect(!cut.error.message.contains("sk-sec"))
    let whole = failure(502, text)
    #expect(whole.error.message == "upstream failed for sk-sec")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a server error whose message says it timed out is a timeout, in a body or in a stream event`() {
    // A 500 is no timeout by its status: only the text says so.
    let byStatus = failure(500, #"{"error":{"message":"Upstream request timed out"}}"#)
    guard case .timeout(let byBody) = byStatus else {
      Issue.record("a 500 that says it timed out is not a timeout")
      return
    }
    #expect(byBody.status == 500 && byBody.message == "Upstream request timed out")
    let byEvent = mapper.failure(
      streamEnvelope: ErrorEnvelope(message: "generation stopped", type: "server_error", code: "timeout"))
    guard case .timeout(let eventError) = byEvent else {
      Issue.record("an error event with code timeout is \(byEvent), not a timeout")
      return
    }
    #expect(eventError.kind == .errorEvent && eventError.code == "timeout")
  }

  @Test(.timeLimit(.minutes(10)))
  func `OpenAI's older context message gives the prompt's tokens, not the prompt's and the completion's`() {
    let body =
      #"{"error":{"message":"This model's maximum context length is 4097 tokens, however you requested "#
      + #"4162 tokens (3162 in your prompt; 1000 for the completion).","type":"invalid_request_error"}}"#
    guard case .contextSizeExceeded(let contextSize, let tokenCount, _) = failure(400, body) else {
      Issue.record("expected a context size failure")
      return
    }
    #expect(contextSize == 4097)
    #expect(tokenCount == 3162)
  }

  @Test(.timeLimit(.minutes(10)))
  func `OpenAI's older context message without a breakdown gives the requested tokens`() {
    let body =
      #"{"error":{"message":"This model's maximum context length is 4097 tokens, however you requested "#
      + #"5000 tokens. Please reduce the length of the messages.","type":"invalid_request_error"}}"#
    guard case .contextSizeExceeded(let contextSize, let tokenCount, _) = failure(400, body) else {
      Issue.record("expected a context size failure")
      return
    }
    #expect(contextSize == 4097)
    #expect(tokenCount == 5000)
  }

  @Test(.timeLimit(.minutes(10)))
  func `llama-cpp-python's context message gives the window and the tokens in the messages`() {
    // The text of llama-cpp-python 0.3's server for a chat request whose prompt filled a 2,048-token window.
    let body =
      #"{"error":{"message":"This model's maximum context length is 2048 tokens. However, you requested "#
      + #"2148 tokens (2048 in the messages, 100 in the completion). Please reduce the length of the "#
      + #"messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
    guard case .contextSizeExceeded(let contextSize, let tokenCount, _) = failure(400, body) else {
      Issue.record("expected a context size failure")
      return
    }
    #expect(contextSize == 2048)
    #expect(tokenCount == 2048)
  }
}
