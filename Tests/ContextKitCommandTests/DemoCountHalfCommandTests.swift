import Foundation
import TestSupport
import Testing

@testable import contextkit

/// The recoveries of one `demo --json` output, from its data: per scenario,
/// each result's count and the listed recoveries' strategies.
private struct RecoveryData {
  var strategies: [String] = []
  /// Scenario → strategy → the result's `contextOverflowRecoveryCount`.
  var counts: [String: [String: Int]] = [:]
  /// Scenario → the strategies of its listed recoveries, in order.
  var listed: [String: [String]] = [:]
  /// Every listed recovery's note kind.
  var kinds: Set<String> = []
  /// The turns over budget of every result.
  var turnsOverBudget: [Int] = []
  var totalCount = 0

  init(_ object: [String: Any]) throws {
    let all = try #require(object["all"] as? [String: Any])
    let allResults = try #require(all["results"] as? [[String: Any]])
    totalCount = allResults.compactMap { $0["contextOverflowRecoveryCount"] as? Int }.reduce(0, +)
    strategies = allResults.compactMap { $0["strategy"] as? String }
    for scenario in try #require(object["scenarios"] as? [[String: Any]]) {
      let name = try #require(scenario["name"] as? String)
      let comparison = try #require(scenario["comparison"] as? [String: Any])
      for result in try #require(comparison["results"] as? [[String: Any]]) {
        let strategy = try #require(result["strategy"] as? String)
        counts[name, default: [:]][strategy] = try #require(result["contextOverflowRecoveryCount"] as? Int)
        turnsOverBudget.append(try #require(result["turnsOverBudget"] as? Int))
      }
      let recoveries = try #require(scenario["recoveries"] as? [[String: Any]])
      listed[name] = try recoveries.map { try #require($0["strategy"] as? String) }
      for recovery in recoveries {
        let note = try #require(recovery["note"] as? [String: Any])
        kinds.insert(try #require(note["kind"] as? String))
      }
    }
  }
}

@Suite("contextkit demo --count-half", .timeLimit(.minutes(10))) struct DemoCountHalfCommandTests {
  @Test func `counting half, the compacting strategies recover, and the counts match the listed recoveries`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let folder = temporary.url
    let html = folder.appendingPathComponent("demo.html").path
    let run = await CommandRun.run(["demo", "--json", "--count-half", "--html", html])
    #expect(run.code == .success, "\(run.error)")
    let object = try run.jsonObject()
    #expect(object["countsHalf"] as? Bool == true)
    let data = try RecoveryData(object)
    #expect(data.strategies == ["compactingHistory", "compactingHistorySummarized"])
    #expect(data.kinds == ["contextOverflowRecovered"])
    #expect(data.turnsOverBudget.allSatisfy { $0 == 0 })
    #expect(data.counts.count == 3)
    for (scenario, counts) in data.counts {
      let listed = data.listed[scenario] ?? []
      #expect(!listed.isEmpty, "\(scenario)")
      for (strategy, count) in counts {
        #expect(count == listed.filter { $0 == strategy }.count, "\(scenario) \(strategy)")
      }
    }
    #expect(data.totalCount == data.listed.values.map(\.count).reduce(0, +))

    let text = await CommandRun.run(["demo", "--count-half", "--html", html])
    #expect(text.code == .success)
    let lines = text.output.split(separator: "\n")
    #expect(
      lines.filter { $0.hasPrefix("  compactingHistory") }.count == data.totalCount,
      "\(text.output)")
    #expect(
      lines.filter {
        $0 == "recovered from a context overflow (the records' contextOverflowRecovered notes):"
      }
      .count == 3)
  }

  @Test func `without it, every strategy runs and none recovers`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let folder = temporary.url
    let run = await CommandRun.run(
      ["demo", "--json", "--html", folder.appendingPathComponent("demo.html").path])
    #expect(run.code == .success)
    let object = try run.jsonObject()
    #expect(object["countsHalf"] as? Bool == false)
    let data = try RecoveryData(object)
    #expect(data.strategies.count == 7)
    #expect(data.totalCount == 0)
    #expect(data.counts.values.flatMap(\.values).allSatisfy { $0 == 0 })
    #expect(data.listed.values.allSatisfy { $0.isEmpty })
  }

  @Test func `it does not go with the cache check`() async {
    let run = await CommandRun.run(
      ["demo", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--count-half", "--cache-check"])
    #expect(run.code == .usage)
    #expect(run.error.contains("--count-half and --cache-check do not go together"))
  }
}
