import Foundation
import Testing

/// What `contextkit` prints about an endpoint given on the command line: the
/// URL's password and secret query values stay out of every line.
@Suite(.timeLimit(.minutes(10))) struct `the CLI never prints an endpoint's secrets` {
  @Test func `demo --endpoint prints the URL without its password or key, even when the server is down`()
    throws
  {
    // Port 1 refuses at once: the demo prints its first line, then fails to connect.
    for json in [false, true] {
      let arguments =
        [
          "demo", "--endpoint", "http://someone:pw-secret-123@127.0.0.1:1/v1?api_key=query-secret-456",
          "--model", "m",
        ]
        + (json ? ["--json"] : [])
      let (output, error, status) = try runContextKit(arguments)
      let text = String(decoding: output + error, as: UTF8.self)
      #expect(status != 0, "\(text)")
      #expect(text.contains("127.0.0.1:1"), "the endpoint is still named: \(text)")
      #expect(!text.contains("pw-secret-123"), "\(text)")
      #expect(!text.contains("query-secret-456"), "\(text)")
    }
  }
}

/// A local HTTP listener that writes the head of every request it gets to a
/// file and answers 500: what reached the network, for tests of what is sent.
final class RecordingListener {
  let port: Int
  let log: URL
  private let process: Process

  init() throws {
    log = FileManager.default.temporaryDirectory.appendingPathComponent("ck-listener-\(UUID().uuidString)")
    try Data().write(to: log)
    let script = """
      import os, socket, sys, threading
      server = socket.socket()
      server.bind(("127.0.0.1", 0))
      server.listen(16)
      print(server.getsockname()[1], flush=True)
      def serve(connection):
          head = b""
          while b"\\r\\n\\r\\n" not in head and len(head) < 65536:
              piece = connection.recv(4096)
              if not piece:
                  break
              head += piece
          with open(sys.argv[1], "ab") as log:
              log.write(head + b"\\n=====\\n")
          connection.sendall(b"HTTP/1.1 500 Internal Server Error\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nno")
          connection.close()
      threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
      while True:
          connection, _ = server.accept()
          threading.Thread(target=serve, args=(connection,), daemon=True).start()
      """
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, log.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = Pipe()
    try process.run()
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "no port: \(line)")
  }

  /// Every request head received so far.
  var received: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  deinit {
    process.terminate()
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: log)
  }
}

@Suite(.timeLimit(.minutes(10))) struct `One URL parser decides` {
  @Test func `spellings libcurl reads as user info are refused before any request, and never printed`() throws
  {
    let listener = try RecordingListener()
    for spelling in [
      "http:/user:sekrit@127.0.0.1:\(listener.port)/v1", "http:user:sekrit@127.0.0.1:\(listener.port)/v1",
      "http:///user:sekrit@127.0.0.1:\(listener.port)/v1", "HTTP:/user:sekrit@127.0.0.1:\(listener.port)/v1",
    ] {
      for json in [false, true] {
        let (output, error, status) = try runContextKit(
          ["demo", "--endpoint", spelling, "--model", "m"] + (json ? ["--json"] : []))
        let text = String(decoding: output + error, as: UTF8.self)
        #expect(status == 2, "\(spelling): \(text)")
        #expect(text.contains("--endpoint: "), "\(spelling): \(text)")
        #expect(!text.contains("sekrit"), "\(spelling): \(text)")
      }
    }
    #expect(listener.received.isEmpty, "a request reached the listener: \(listener.received)")
  }

  @Test
  func
    `the spelling both parsers read alike reaches the listener with its credential, which is never printed`()
    throws
  {
    let listener = try RecordingListener()
    let (output, error, status) = try runContextKit(
      ["demo", "--endpoint", "http://user:sekrit@127.0.0.1:\(listener.port)/v1", "--model", "m"])
    let text = String(decoding: output + error, as: UTF8.self)
    #expect(status != 0 && status != 2, "\(text)")
    #expect(!text.contains("sekrit"), "\(text)")
    // As curl does: the URL's user and password go to that origin as Basic credentials.
    #expect(listener.received.contains("Authorization: Basic dXNlcjpzZWtyaXQ="), "\(listener.received)")
  }
}
