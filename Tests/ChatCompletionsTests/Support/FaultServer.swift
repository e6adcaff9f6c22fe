import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// The fault server (`FaultServer/fault_server.py`, Python standard library
/// only), started on 127.0.0.1 with a free port for one test and stopped after it.
final class FaultServer {
  let port: Int
  /// A port whose listener never accepts: connecting to it hangs until a connect timeout.
  let blackholePort: Int?
  private let process: Process
  private let input: Pipe

  private init(process: Process, input: Pipe, port: Int, blackholePort: Int?) {
    self.process = process
    self.input = input
    self.port = port
    self.blackholePort = blackholePort
  }

  /// One POST the server received.
  struct ReceivedRequest: Decodable {
    var path: String
    var host: String
    var port: Int
    var authorization: String?
    var proxied: Bool
    /// The body's `stream`, when it is JSON and has one.
    var stream: Bool?
    /// The body's `max_tokens`, when it is JSON and has one.
    var maxTokens: Int?

    enum CodingKeys: String, CodingKey {
      case path, host, port, authorization, proxied, stream
      case maxTokens = "max_tokens"
    }
  }

  /// Every POST the server has received so far.
  func receivedRequests() async throws -> [ReceivedRequest] {
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/requests"))
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: url), timeouts: ChatCompletionsTimeouts(10))
    let response = try await client.transport.send(HTTPRequest(method: "GET", url: url))
    return try JSONDecoder().decode([ReceivedRequest].self, from: try await Self.wholeBody(of: response))
  }

  /// Waits until the server has seen `event` at least `count` times (`GET /await/<event>`
  /// of `fault_server.py`: the server answers as soon as it counts the event), for up to
  /// `seconds`, and returns how often it has seen it (less than `count` on the deadline).
  func occurrences(
    of event: String, atLeast count: Int = 1, waitingUpTo seconds: Int = 10
  ) async throws -> Int {
    let url = try #require(
      URL(string: "http://127.0.0.1:\(port)/await/\(event)?count=\(count)&timeout=\(seconds)"))
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: url), timeouts: ChatCompletionsTimeouts(Double(seconds + 10)))
    let response = try await client.transport.send(HTTPRequest(method: "GET", url: url))
    let body = try await Self.wholeBody(of: response, waitingUpTo: Double(seconds + 10))
    return try JSONDecoder().decode([String: Int].self, from: body)["count"] ?? 0
  }

  /// The whole body of one of the server's small JSON answers, read under the
  /// client's bounds (1 MiB, `seconds`); a body cut short is an error, not a partial value.
  private static func wholeBody(
    of response: StreamingHTTPResponse, waitingUpTo seconds: TimeInterval = 10
  ) async throws -> Data {
    let body = await BoundedBodyReader.read(response.body, maximumBytes: 1 << 20, timeLimit: seconds)
    if let note = body.stopNote {
      throw FaultServerError(message: "the fault server's answer was not read whole: \(note)")
    }
    return body.data
  }

  /// The base URL that selects a fault mode: `http://127.0.0.1:<port>/<mode>`.
  func baseURL(_ mode: String) throws -> URL {
    try #require(URL(string: "http://127.0.0.1:\(port)/\(mode)"))
  }

  /// Starts a server, runs `body`, and stops the server whatever happens.
  static func with<T>(
    arguments: [String] = [], _ body: (FaultServer) async throws -> T
  ) async throws -> T {
    let server = try await start(arguments: arguments)
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  private static func start(arguments: [String]) async throws -> FaultServer {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("FaultServer/fault_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--exit-on-stdin-eof"] + arguments
    let output = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    // Read the port line on a thread of its own: a blocking read must not
    // occupy one of the few threads of the concurrency pool.
    let text = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var line = Data()
        while !line.contains(0x0A) {
          let more = output.fileHandleForReading.availableData
          if more.isEmpty {
            break
          }
          line.append(more)
        }
        continuation.resume(returning: String(decoding: line, as: UTF8.self))
      }
    }
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
      process.terminate()
      throw FaultServerError(message: "the fault server did not print its port: \(text)")
    }
    let blackhole = text.range(of: "BLACKHOLE ").flatMap {
      Int(text[$0.upperBound...].prefix { $0.isNumber })
    }
    return FaultServer(process: process, input: input, port: port, blackholePort: blackhole)
  }

  /// Stops the server by closing its standard input (it exits on end of
  /// input), with SIGTERM and then SIGKILL as fallbacks.
  private func stop() async {
    try? input.fileHandleForWriting.close()
    for signal in [nil, SIGTERM, SIGKILL] {
      if let signal, process.isRunning {
        kill(process.processIdentifier, signal)
      }
      for _ in 0..<100 where process.isRunning {
        try? await Task.sleep(for: .milliseconds(20))
      }
      if !process.isRunning {
        break
      }
    }
  }
}

struct FaultServerError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
