import Foundation

/// Checks that a 2xx answer to a streamed request is an event stream before
/// its body is parsed as one.
///
/// A captive portal, a proxy's login page or a misrouted base URL answers 200
/// with an HTML page; parsed as an event stream it has no events, and the
/// failure would read as a server that closed the stream (which llama.cpp
/// does when the prompt exceeds the context window). Instead the failure says
/// what came back and from where: the content type, the URL without secrets,
/// and a short redacted excerpt of the body.
enum EventStreamContentCheck {
  /// The longest excerpt of the unexpected body kept in the message, in characters.
  static let excerptLimit = 300

  /// The most bytes read of the unexpected body for the excerpt.
  static let excerptBytes = 16 << 10

  /// Whether a `Content-Type` value is acceptable for an event stream: absent
  /// (some servers send none) or `text/event-stream` with any parameters.
  static func accepts(contentType: String?) -> Bool {
    guard let contentType else { return true }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    let trimmed = mediaType.trimmingCharacters(in: .whitespaces).lowercased()
    return trimmed.isEmpty || trimmed == "text/event-stream"
  }

  /// Throws a ``ChatCompletionsError/Kind/unexpectedContentType`` failure
  /// (or, for a JSON error object, the server's error) when the answer is not
  /// an event stream; returns without reading anything when it is.
  static func check(
    _ response: StreamingHTTPResponse, url: URL, mapper: ErrorMapper, limits: ResponseLimits
  ) async throws {
    let contentType = response.headers["content-type"]
    guard !accepts(contentType: contentType) else { return }
    let body = await BoundedBodyReader.read(
      response.body, maximumBytes: min(excerptBytes, limits.maximumErrorBodyBytes),
      timeLimit: limits.errorBodyTimeLimit)
    try Task.checkCancellation()
    if body.isComplete, let envelope = ErrorEnvelope.decode(from: body.data) {
      throw mapper.failure(streamEnvelope: envelope)
    }
    throw ChatCompletionsFailure.other(
      ChatCompletionsError(
        kind: .unexpectedContentType, status: response.status,
        message: message(
          status: response.status, contentType: contentType ?? "", url: url, body: body, mapper: mapper)))
  }

  static func message(
    status: Int, contentType: String, url: URL, body: ErrorBody, mapper: ErrorMapper
  ) -> String {
    let text = String(decoding: body.data, as: UTF8.self)
    let excerpt = mapper.redaction.excerpt(
      of: printable(text), limit: excerptLimit, inputWasCut: !body.isComplete)
    let shownType = mapper.redaction.excerpt(of: printable(contentType), limit: 100)
    let hint =
      contentType.lowercased().contains("html")
      ? " (an HTML page: a proxy, a login portal, or a base URL that points at a website?)"
      : contentType.lowercased().contains("json")
        ? " (a JSON document: does the server support \"stream\": true?)" : ""
    var message =
      "the server answered \(status) with Content-Type \(shownType) instead of text/event-stream\(hint), "
      + "at \(mapper.redaction.describe(url))"
    if !excerpt.isEmpty {
      message += "; the body starts: \(excerpt)"
    }
    return message
  }

  /// The text on one line, with control characters (terminal escapes among
  /// them) shown as spaces and runs of white space as one space.
  private static func printable(_ text: String) -> String {
    var result = ""
    var lastWasSpace = false
    for scalar in text.unicodeScalars {
      let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
      if isSpace {
        if !lastWasSpace && !result.isEmpty { result.append(" ") }
        lastWasSpace = true
      } else {
        result.unicodeScalars.append(scalar)
        lastWasSpace = false
      }
    }
    return result.trimmingCharacters(in: .whitespaces)
  }
}
