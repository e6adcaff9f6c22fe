import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct EndpointOptionTests {
  /// What `contextkit` prints about an endpoint given on the command line: the
  /// URL's password and secret query values stay out of every line.
  @Suite("the CLI never prints an endpoint's secrets") struct Secrets {
    @Test(arguments: ["demo", "check-cache"])
    func `--endpoint is printed without its password or key, even when the server is down`(
      command: String
    )
      throws
    {
      // Port 1 refuses at once: the command prints its first line, then fails to connect.
      for json in [false, true] {
        let arguments =
          [
            command, "--endpoint", "http://someone:pw-secret-123@127.0.0.1:1/v1?api_key=query-secret-456",
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

  @Suite("One URL parser decides") struct OneParser {
    @Test(arguments: ["demo", "check-cache"])
    func `spellings libcurl reads as user info are refused before any request, and never printed`(
      command: String
    ) throws {
      let listener = try RecordingListener()
      for spelling in [
        "http:/user:sekrit@127.0.0.1:\(listener.port)/v1", "http:user:sekrit@127.0.0.1:\(listener.port)/v1",
        "http:///user:sekrit@127.0.0.1:\(listener.port)/v1",
        "HTTP:/user:sekrit@127.0.0.1:\(listener.port)/v1",
      ] {
        for json in [false, true] {
          let (output, error, status) = try runContextKit(
            [command, "--endpoint", spelling, "--model", "m"] + (json ? ["--json"] : []))
          let text = String(decoding: output + error, as: UTF8.self)
          #expect(status == 2, "\(spelling): \(text)")
          #expect(text.contains("--endpoint: "), "\(spelling): \(text)")
          #expect(!text.contains("sekrit"), "\(spelling): \(text)")
        }
      }
      #expect(listener.received.isEmpty, "a request reached the listener: \(listener.received)")
    }

    @Test(arguments: ["demo", "check-cache"])
    func
      `the spelling both parsers read alike reaches the listener with its credential, which is never printed`(
        command: String
      )
      throws
    {
      let listener = try RecordingListener()
      let (output, error, status) = try runContextKit(
        [command, "--endpoint", "http://user:sekrit@127.0.0.1:\(listener.port)/v1", "--model", "m"])
      let text = String(decoding: output + error, as: UTF8.self)
      #expect(status != 0 && status != 2, "\(text)")
      #expect(!text.contains("sekrit"), "\(text)")
      // As curl does: the URL's user and password go to that origin as Basic credentials.
      #expect(listener.received.contains("Authorization: Basic dXNlcjpzZWtyaXQ="), "\(listener.received)")
    }
  }
}
