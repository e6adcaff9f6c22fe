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
