import Foundation

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
  /// What the log says about one request.
  package struct Request: Sendable, Hashable {
    /// The prompt tokens taken from the cache (0 when the log has no prefix-match line).
    package var cachedTokenCount: Int
    /// The prompt tokens processed.
    package var processedTokenCount: Int
    /// Every prompt token: cached and processed.
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

  /// The complete requests logged after `offset`, in order.
  package func requests(since offset: UInt64) throws -> [Request] {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    let data = try handle.readToEnd() ?? Data()
    return try Self.requests(in: String(decoding: data, as: UTF8.self), path: url.path)
  }

  /// The complete requests in a piece of log text, in order; a request whose
  /// closing `total time` line is not there yet is left out.
  package static func requests(in text: String, path: String = "log") throws(FormatError) -> [Request] {
    var requests: [Request] = []
    var cached: Int?
    var processed: Int?
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("Llama.generate:") {
        let numbers = integers(in: line)
        guard line.contains("prefix-match hit"), numbers.count == 2 else {
          throw FormatError(path: path, line: number + 1, reason: "unexpected generate line: \(line)")
        }
        cached = numbers[0]
        processed = numbers[1]
      } else if line.contains("prompt eval time"), let slash = line.lastIndex(of: "/") {
        // `… = 12.3 ms /    21 tokens (…)`: the prompt tokens processed.
        guard let count = integers(in: line[slash...]).first else {
          throw FormatError(path: path, line: number + 1, reason: "no token count in: \(line)")
        }
        processed = processed ?? count
      } else if line.contains("total time") && line.hasPrefix("llama_perf_context_print") {
        if let processed {
          requests.append(Request(cachedTokenCount: cached ?? 0, processedTokenCount: processed))
        }
        cached = nil
        processed = nil
      }
    }
    return requests
  }

  private static func integers(in text: Substring) -> [Int] {
    text.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Int($0) }
  }
}
