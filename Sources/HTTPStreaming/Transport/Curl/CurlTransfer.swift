#if canImport(CCurl)
import CCurl
import Foundation

/// One request on the event-loop thread: its easy handle, the response head
/// being parsed, its timers and its back-pressure state.
///
/// libcurl's callbacks reach it through the `userdata` pointer (an unretained
/// reference; the loop thread's tables keep it alive until ``finish(_:)``).
final class CurlTransfer {
  let id: Int
  let easy: UnsafeMutableRawPointer
  private let request: HTTPRequest
  private var head: CheckedContinuation<StreamingHTTPResponse, any Error>?
  private let buffer: HTTPBodyBuffer
  private let finished: @Sendable () -> Void
  private var headerList: UnsafeMutablePointer<curl_slist>?
  private let errorText: UnsafeMutablePointer<CChar>

  private var status = 0
  private var headers = HTTPHeaderFields()
  private var headBytes = 0
  private var requestSent: ContinuousClock.Instant?
  private var lastByte: ContinuousClock.Instant?
  private var paused = false
  /// Why the transfer was aborted from a callback, when it was.
  private var abortReason: (any Error)?
  /// Whether the final head has arrived but waits for the first byte of its
  /// body (or its end): an answer on a reused connection is held so, because
  /// until then nothing has reached the caller and the request can still go
  /// out again on a new connection. (The body is made only on delivery: a
  /// body dropped unread tells the buffer that its reader left.)
  private var headIsHeld = false
  /// Whether the request already went out again on a new connection.
  private var sentAgain = false

  /// The most bytes a response head may have.
  static let maximumHeadBytes = 256 * 1024

  init(start: CurlTransferStart) throws {
    guard let easy = curl_easy_init() else {
      throw TransportFailure.connectionFailed("libcurl could not create a transfer")
    }
    self.id = start.token.id
    self.easy = easy
    self.request = start.request
    self.head = start.head
    self.buffer = start.buffer
    self.finished = start.finished
    self.errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorText.initialize(to: 0)
    try configure()
  }

  deinit {
    curl_easy_cleanup(easy)
    curl_slist_free_all(headerList)
    errorText.deallocate()
  }

  private func configure() throws {
    let context = Unmanaged.passUnretained(self).toOpaque()
    let timeouts = request.timeouts
    var results = [
      ck_setopt_string(easy, CURLOPT_URL, request.url.absoluteString),
      ck_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
      ck_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
      ck_setopt_long(easy, CURLOPT_HTTP_VERSION, ck_http_version_1_1()),
      ck_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
      ck_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
      ck_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1),
      ck_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect)),
      ck_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText),
      ck_setopt_pointer(easy, CURLOPT_PRIVATE, context),
      ck_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback),
      ck_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
      ck_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback),
      ck_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
      ck_setopt_prereq_function(easy, curlPrerequestCallback),
      ck_setopt_pointer(easy, CURLOPT_PREREQDATA, context),
    ]
    results += methodAndBodyOptions()
    results.append(try headerOptions())
    if let failed = results.first(where: { $0 != CURLE_OK }) {
      throw TransportFailure.connectionFailed(
        "libcurl refused an option of the request to \(request.url.absoluteString): "
          + String(cString: curl_easy_strerror(failed)))
    }
  }

  /// The options that set the method and, when there is one, the body (copied by libcurl).
  private func methodAndBodyOptions() -> [CURLcode] {
    let method = request.method.uppercased()
    var results: [CURLcode]
    switch (method, request.body) {
    case ("GET", nil):
      return [ck_setopt_long(easy, CURLOPT_HTTPGET, 1)]
    case ("POST", _):
      results = [ck_setopt_long(easy, CURLOPT_POST, 1)]
    default:
      results = [ck_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)]
      guard request.body != nil else { return results }
    }
    let body = request.body ?? Data()
    results.append(ck_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
    results.append(
      body.withUnsafeBytes { bytes in
        // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
        ck_setopt_pointer(
          easy, CURLOPT_COPYPOSTFIELDS,
          UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorText)))
      })
    return results
  }

  /// The request's header fields (a field with a line break is refused), without
  /// an `Expect: 100-continue` round trip before large bodies.
  private func headerOptions() throws -> CURLcode {
    for (name, value) in request.headers {
      guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else {
        throw TransportFailure.invalidResponse("the request header \(name) contains a line break")
      }
      headerList = curl_slist_append(headerList, "\(name): \(value)")
    }
    headerList = curl_slist_append(headerList, "Expect:")
    return ck_setopt_list(easy, CURLOPT_HTTPHEADER, headerList)
  }

  // MARK: Callbacks (on the loop thread, from inside libcurl)

  /// The connection is open and the request is about to be sent: the first-byte timer starts.
  func willSendRequest() {
    requestSent = .now
  }

  /// One line of the response head (or of an interim 1xx head).
  func receivedHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
    lastByte = .now
    headBytes += line.count
    guard headBytes <= Self.maximumHeadBytes else {
      abortReason = TransportFailure.invalidResponse(
        "the response head from \(request.url.absoluteString) is longer than \(Self.maximumHeadBytes) bytes")
      return false
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasPrefix("HTTP/") {
      let parts = text.split(separator: " ", maxSplits: 2)
      status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
      headers = HTTPHeaderFields()
      return true
    }
    if text.isEmpty {
      if status >= 200, head != nil {
        headIsHeld = true
        if !connectionWasReused {
          deliverHead()
        }
      }
      return true
    }
    if let colon = text.firstIndex(of: ":") {
      let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
      let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if let existing = headers[name] {
        headers[name] = existing + ", " + value
      } else {
        headers[name] = value
      }
    }
    return true
  }

  /// A piece of the body: buffered, refused (pausing the transfer), or the end of it.
  func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    lastByte = .now
    deliverHead()
    switch buffer.offer(Data(bytes), canRefuse: true) {
    case .accepted, .acceptedThenPause:
      return bytes.count
    case .refused:
      paused = true
      return ck_write_pause()
    case .consumerGone:
      abortReason = CancellationError()
      return 0
    }
  }

  /// Hands the held head to the caller waiting for it.
  private func deliverHead() {
    guard headIsHeld, let head else { return }
    headIsHeld = false
    self.head = nil
    head.resume(
      returning: StreamingHTTPResponse(status: status, headers: headers, body: HTTPBody(buffer: buffer)))
  }

  /// Whether this attempt runs on a connection that an earlier transfer opened.
  private var connectionWasReused: Bool {
    var connections = 0
    return ck_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connections) == CURLE_OK && connections == 0
  }

  // MARK: Loop thread

  /// Whether a transfer that libcurl reports done with `code` should go out
  /// again on a new connection: the answer broke off on a reused connection
  /// before any of it reached the caller. A server may close a kept-alive
  /// connection at the moment the next request goes out on it (uvicorn does
  /// when a streamed answer that failed closes the connection the next
  /// request already uses); libcurl sends again by itself only when not a
  /// byte came back. Once, and never after a body byte was delivered, so no
  /// caller sees an answer twice.
  func shouldSendAgain(after code: CURLcode) -> Bool {
    guard !sentAgain, abortReason == nil, head != nil, connectionWasReused else { return false }
    return [CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING].contains(code)
  }

  /// Prepares the transfer to go out again on a new connection (after the
  /// loop removed it from the multi handle, before it adds it again).
  func prepareToSendAgain() throws {
    sentAgain = true
    status = 0
    headers = HTTPHeaderFields()
    headBytes = 0
    headIsHeld = false
    requestSent = nil
    lastByte = nil
    errorText.pointee = 0
    let code = ck_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1)
    guard code == CURLE_OK else {
      throw TransportFailure.connectionFailed(
        "libcurl could not send the request to \(request.url.absoluteString) again on a new connection: "
          + String(cString: curl_easy_strerror(code)))
    }
  }

  /// Unpauses a paused transfer; libcurl may deliver the held piece at once.
  func resume() {
    guard paused else { return }
    paused = false
    lastByte = .now
    ck_resume_all(easy)
  }

  /// The timeout that has expired at `now`, if one has.
  func expiredTimeout(at now: ContinuousClock.Instant) -> TransportFailure? {
    let url = request.url.absoluteString
    if let lastByte {
      if !paused && now - lastByte > .seconds(request.timeouts.idle) {
        return .idleTimeout(seconds: request.timeouts.idle, url: url)
      }
    } else if let requestSent, now - requestSent > .seconds(request.timeouts.firstByte) {
      return .firstByteTimeout(seconds: request.timeouts.firstByte, url: url)
    }
    return nil
  }

  /// When the next timeout of this transfer would expire (none while paused or connecting).
  var nextDeadline: ContinuousClock.Instant? {
    if let lastByte {
      return paused ? nil : lastByte + .seconds(request.timeouts.idle)
    }
    return requestSent.map { $0 + .seconds(request.timeouts.firstByte) }
  }

  /// What a transfer that libcurl reports done with `code` means.
  func outcome(of code: CURLcode) -> Result<Void, any Error> {
    if let abortReason {
      return .failure(abortReason)
    }
    if code == CURLE_OK {
      return .success(())
    }
    let detail =
      errorText.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorText)
    return .failure(CurlErrorMapping.failure(code: code, detail: detail, request: request))
  }

  /// Delivers the outcome: to the caller waiting for the head, or to the body's reader.
  func finish(_ result: Result<Void, any Error>) {
    if case .success = result, headIsHeld {
      // A complete answer without a body byte (such as a 204) on a reused connection.
      deliverHead()
      buffer.finish()
    } else if let head {
      self.head = nil
      headIsHeld = false
      switch result {
      case .success:
        head.resume(
          throwing: TransportFailure.invalidResponse(
            "\(request.url.absoluteString) closed the connection without an answer"))
      case .failure(let error):
        head.resume(throwing: error)
      }
      buffer.finish(throwing: CancellationError())
    } else {
      switch result {
      case .success: buffer.finish()
      case .failure(let error): buffer.finish(throwing: error)
      }
    }
    finished()
  }

  /// A timeout in whole milliseconds for libcurl, rounded up: a positive
  /// timeout under a millisecond is 1, never 0 (which libcurl reads as its
  /// own default of 300 seconds).
  private static func milliseconds(_ seconds: TimeInterval) -> Int {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return Int(min(seconds * 1_000, Double(Int32.max)).rounded(.up))
  }
}

/// libcurl's write callback: body bytes.
private let curlWriteCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.receivedBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// libcurl's header callback: one line of the head at a time.
private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return transfer.receivedHeaderLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's pre-request callback: the connection is ready and the request goes out.
private let curlPrerequestCallback: curl_prereq_callback = { context, _, _, _, _ in
  if let context {
    Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().willSendRequest()
  }
  return CURL_PREREQFUNC_OK
}
#endif
