import ChatCompletions
import Foundation

/// Time per streamed token through the whole provider path (URLSession,
/// delegate, SSE parsing, chunk decoding) against a server that streams a
/// fixed long answer as fast as it can (`fault_server.py`, mode `long`).
enum ChatCompletionsEndToEndBenchmark {
  static func run(baseURL: URL, rounds: Int = 3) async throws {
    let client = ChatCompletionsClient(endpoint: EndpointConfiguration(baseURL: baseURL), timeout: 60)
    let body = Data(#"{"model":"bench","stream":true,"messages":[{"role":"user","content":"go"}]}"#.utf8)
    var best = Double.infinity
    var tokens = 0
    for _ in 0..<rounds {
      let clock = ContinuousClock()
      let start = clock.now
      tokens = 0
      for try await chunk in try await client.streamChunks(requestBody: body) {
        if chunk.choices.first?.delta.content != nil {
          tokens += 1
        }
      }
      let elapsed = clock.now - start
      best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    print(
      "swift end-to-end: \(tokens) tokens, best of \(rounds): \(String(format: "%.3f", best)) s, "
        + "\(String(format: "%.2f", best / Double(max(tokens, 1)) * 1e6)) us/token")
  }
}
