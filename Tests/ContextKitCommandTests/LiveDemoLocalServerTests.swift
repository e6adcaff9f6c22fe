import Foundation
import LocalServerSupport
import Testing

@testable import contextkit

@Suite(
  .serialized, .timeLimit(.minutes(20)), .holding(.smallWindow),
  .enabled(
    if: !ServerLease.smallWindow.endpoints.isEmpty,
    "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT is not set: the small-window server tests are skipped"))
struct `contextkit demo --endpoint --count-half against a small window` {
  @Test func `the live demo recovers from the server's refusal and reports it from the notes`() async throws {
    // The small-window server this test holds (one of those CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT names).
    let endpoint = try #require(ServerLease.held?.endpoint)
    // With answers of one token, the coding agent's 40th prompt is 867 tokens (measured with the
    // local model server), and the server refuses a prompt when it and the 32 tokens reserved for the
    // answer pass 1,024: the conversation outgrows the window unless the model's answers average
    // under about 4 tokens, while compactingHistory, counting half, allows about twice its budget
    // of 2,000 - 32.
    let run = await CommandRun.run([
      "demo", "--endpoint", endpoint, "--model", "smollm2", "--llama-cpp-python", "--count-half", "--json",
      "--answer-tokens", "32",
    ])
    #expect(run.code == .success, "\(run.error)")
    print(run.error)
    let object = try run.jsonObject()
    #expect(object["countsHalf"] as? Bool == true)
    let strategies = try #require(object["strategies"] as? [[String: Any]])
    #expect(strategies.compactMap { $0["strategy"] as? String } == ["compactingHistory"])
    let strategy = try #require(strategies.first)
    let recoveries = try #require(strategy["contextOverflowRecoveries"] as? [[String: Any]])
    #expect(!recoveries.isEmpty)
    #expect(strategy["contextOverflowRecoveryCount"] as? Int == recoveries.count)
    for recovery in recoveries {
      let note = try #require(recovery["note"] as? [String: Any])
      #expect(note["kind"] as? String == "contextOverflowRecovered")
      #expect((note["counts"] as? [String: Any])?["contextSize"] as? Int == 1_024)
    }
    // The printed lines say the same: one per recovery.
    #expect(
      run.error.split(separator: "\n").filter { $0.hasPrefix("  recovered: compactingHistory, generation ") }
        .count == recoveries.count)
  }
}
