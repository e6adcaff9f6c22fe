import Foundation
import TestSupport
import Testing

@testable import contextkit

/// `contextkit demo`'s checks of its arguments, before it sends anything.
@Suite("contextkit demo", .timeLimit(.minutes(10))) struct DemoCommandTests {
  @Test func `demo with an endpoint checks its arguments and fails cleanly when nothing answers`() async {
    let command = ContextKitCommand(commands: [DemoCommand()])
    #expect(
      await command.run(["demo", "--endpoint", "http://localhost:8080/v1"], console: .capturing()) == .usage
    )
    #expect(
      await command.run(["demo", "--endpoint", "not a url", "--model", "m"], console: .capturing())
        == .usage)
    #expect(
      await command.run(
        ["demo", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m"], console: .capturing())
        == .invalidInput)
  }

  @Test func `demo refuses a server log that is a FIFO or missing, before it sends anything`() async throws {
    let temporary = try TemporaryFolder(named: "contextkit-log")
    defer { temporary.remove() }
    let folder = temporary.url
    let fifo = folder.appendingPathComponent("server.log").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let command = ContextKitCommand(commands: [DemoCommand()])
    // Nothing listens on port 9: had the check come after a request, the code would be invalidInput.
    for (path, message) in [
      (fifo, "is a FIFO (named pipe), not a regular file"),
      (folder.appendingPathComponent("missing.log").path, "No such file or directory"),
    ] {
      let console = Console.capturing()
      let code = await command.run(
        [
          "demo", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--cache-check", "--server-log",
          path,
        ],
        console: console)
      #expect(code == .usage, "\(path)")
      #expect(console.error.contains(message), "\(console.error)")
    }
  }
}
