import Foundation
import ModelSession

/// The prompt-cache figures that llama-cpp-python's server writes to its log
/// (it reports none in its responses): per request, a verbose line
/// `Llama.generate: N prefix-match hit, remaining M prompt tokens to eval`
/// when it reused N tokens of its cache (none when it reused nothing), then
/// llama.cpp's timing lines, `prompt eval time = … / K tokens` and
/// `total time = …`, which close the request.
///
/// The server runs one request at a time, so the log is a sequence of
/// requests; ``requests(in:)`` splits it.
///
/// ```swift
/// let log = LlamaCppPythonLog(url: logURL)
/// let start = try log.size()
/// // … one request …
/// let served = try log.requests(since: start).last
/// ```
package struct LlamaCppPythonLog: Sendable {
  /// The source of the cached counts read here: the log's prefix-match lines.
  package static let cachedTokenSource = CachedTokenSource(
    rawValue: "llama-cpp-python log (Llama.generate: N prefix-match hit)")

  /// What the log says about one request.
  package struct Request: Sendable, Hashable {
    /// The prompt tokens taken from the cache (0 when the log has no prefix-match line).
    package var cachedTokenCount: Int
    /// The prompt tokens processed.
    package var processedTokenCount: Int
    /// Every prompt token: cached and processed (two counts of at most 2^53 each: the sum fits).
    package var promptTokenCount: Int { cachedTokenCount + processedTokenCount }
  }

  /// A log line that did not read as expected.
  package struct FormatError: Error, CustomStringConvertible {
    /// The log file.
    package var path: String
    /// The line's number in the part of the log read, from 1.
    package var line: Int
    /// What was wrong.
    package var reason: String

    package var description: String { "\(path): line \(line) of the new log text: \(reason)" }
  }

  /// The log file.
  package var url: URL

  package init(url: URL) {
    self.url = url
  }

  /// The log's size in bytes now: where the next request's lines will start.
  package func size() throws -> UInt64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
  }

  /// What the log holds after an offset, up to the end of its last complete request.
  package struct Excerpt: Sendable, Hashable {
    /// The complete requests, in order.
    package var requests: [Request]
    /// The generation requests (`POST /v1/…` access lines, not `/extras/`)
    /// the server answered in that text: more than ``requests`` when a
    /// request's figures are not all there yet, and a sign of another
    /// client when more than the caller sent.
    package var generationRequestCount: Int
    /// The byte offset just after the last complete request's closing line:
    /// where the next excerpt starts (the offset given when there is none).
    package var endOffset: UInt64
    /// Generation requests answered after that line whose figures are not
    /// there yet (a streamed answer's access line comes before them).
    package var pendingGenerationRequestCount = 0
  }

  /// The complete requests logged after `offset`, in order.
  package func requests(since offset: UInt64) throws -> [Request] {
    try excerpt(since: offset).requests
  }

  /// The most log text one excerpt reads after its offset (16 MiB): a
  /// request's lines are a few hundred bytes, and a log that grew by more
  /// (another client's traffic, or a hole of NUL bytes from a truncation)
  /// is read in pieces of this size, never to its end at once.
  package static let maximumExcerptBytes = 16 << 20

  /// The complete requests logged after `offset`, with the generation
  /// requests answered among them and where they end; reads at most
  /// `limit` bytes (``maximumExcerptBytes``), and the next excerpt goes on
  /// from ``Excerpt/endOffset``.
  ///
  /// - Throws: ``FormatError`` when a full `limit` of text holds no complete
  ///   request (the log is not llama-cpp-python's, or holds a hole), or a
  ///   line does not read.
  package func excerpt(since offset: UInt64, limit: Int = maximumExcerptBytes) throws -> Excerpt {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    let data = try handle.read(upToCount: limit) ?? Data()
    var excerpt = try Self.excerpt(in: String(decoding: data, as: UTF8.self), path: url.path)
    if data.count >= limit, excerpt.requests.isEmpty {
      throw FormatError(
        path: url.path, line: 1,
        reason: "\(limit) bytes after byte \(offset) hold no complete request (a llama-cpp-python log has "
          + "a few hundred bytes per request; is there a hole of NUL bytes, or another program's output?)")
    }
    excerpt.endOffset += offset
    return excerpt
  }

  /// The complete requests in a piece of log text, in order; a request whose
  /// closing `total time` line is not there yet is left out.
  package static func requests(in text: String, path: String = "log") throws(FormatError) -> [Request] {
    try excerpt(in: text, path: path).requests
  }

  /// The complete requests in a piece of log text and the generation
  /// requests answered up to the last one's closing line; ``Excerpt/endOffset``
  /// counts bytes from the start of `text`.
  package static func excerpt(in text: String, path: String = "log") throws(FormatError) -> Excerpt {
    var requests: [Request] = []
    var cached: Int?
    var processed: Int?
    var generationRequests = 0
    var counted = Excerpt(requests: [], generationRequestCount: 0, endOffset: 0)
    var offset = 0
    for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      defer { offset += rawLine.utf8.count + 1 }
      // A server that wrote past the end of a file someone truncated leaves NUL bytes.
      let line = rawLine.drop(while: { $0 == "\0" })
      if line.contains("\"POST /v1/") {
        generationRequests += 1
      } else if line.hasPrefix("Llama.generate:") {
        let numbers = try integers(in: line, path: path, line: number + 1)
        guard line.contains("prefix-match hit"), numbers.count == 2 else {
          throw FormatError(path: path, line: number + 1, reason: "unexpected generate line: \(line)")
        }
        cached = numbers[0]
        processed = numbers[1]
      } else if line.contains("prompt eval time"), let slash = line.lastIndex(of: "/") {
        // `… = 12.3 ms /    21 tokens (…)`: the prompt tokens processed.
        guard let count = try integers(in: line[slash...], path: path, line: number + 1).first else {
          throw FormatError(path: path, line: number + 1, reason: "no token count in: \(line)")
        }
        processed = processed ?? count
      } else if line.contains("total time") && line.hasPrefix("llama_perf_context_print") {
        if let processed {
          requests.append(Request(cachedTokenCount: cached ?? 0, processedTokenCount: processed))
          counted = Excerpt(
            requests: requests, generationRequestCount: generationRequests,
            endOffset: UInt64(min(offset + rawLine.utf8.count + 1, text.utf8.count)))
        }
        cached = nil
        processed = nil
      }
    }
    counted.pendingGenerationRequestCount = generationRequests - counted.generationRequestCount
    return counted
  }

  /// The whole numbers in a line (`12.3` is a decimal, not a count, and is
  /// left out); each must be a count from 0 to 2^53 (`CountRange`).
  private static func integers(in text: Substring, path: String, line: Int) throws(FormatError) -> [Int] {
    var numbers: [Int] = []
    for word in text.split(whereSeparator: { !$0.isASCII || !($0.isNumber || $0 == ".") }) {
      guard !word.contains(".") else { continue }
      guard let number = CountRange.parse(word) else {
        throw FormatError(
          path: path, line: line, reason: "\(word) is not \(CountRange.requirement) in: \(text)")
      }
      numbers.append(number)
    }
    return numbers
  }
}
