import Foundation
import LocalServerSupport
import TestSupport
import Testing

@testable import contextkit

/// The local model server of `scripts/local-model`, when `CONTEXTKIT_TEST_ENDPOINT` names it.
private let localEndpoint = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"]
  .flatMap { $0.isEmpty ? nil : $0 }
/// Its verbose log, when `CONTEXTKIT_TEST_SERVER_LOG` names it.
private let localServerLog = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_SERVER_LOG"]
  .flatMap { $0.isEmpty ? nil : $0 }

/// The options `check-cache` reads, or the usage error's text.
private func options(
  _ arguments: [String]
) -> Result<CheckCacheCommand.Options, CommandLineArguments.UsageError> {
  var parser = CommandLineArguments(arguments)
  do throws(CommandLineArguments.UsageError) {
    return .success(try CheckCacheCommand.Options(&parser))
  } catch {
    return .failure(error)
  }
}

private func usageError(_ arguments: [String]) -> String? {
  if case .failure(let error) = options(arguments) { error.description } else { nil }
}

@Suite(.timeLimit(.minutes(20))) struct CheckCacheCommandTests {
  @Suite("check-cache options") struct Options {
    @Test func `every option is read, with its default when absent`() throws {
      let given = try options([
        "--endpoint", "http://127.0.0.1:8765/v1", "--model", "smollm2", "--server-log", "/tmp/server.log",
        "--llama-cpp-python", "--prompts", "3", "--budget", "900", "--answer-tokens", "8", "--skills", "lib",
        "--json", "--html", "out.html",
      ]).get()
      #expect(given.endpoint == URL(string: "http://127.0.0.1:8765/v1"))
      #expect(given.model == "smollm2")
      #expect(given.serverLog == "/tmp/server.log")
      #expect(given.llamaCppPython && given.json)
      #expect(given.prompts == 3 && given.budget == 900 && given.answerTokens == 8)
      #expect(given.skills == "lib" && given.html == "out.html")
      let defaults = try options(["--endpoint", "https://api.example.com/v1", "--model", "m"]).get()
      #expect(defaults.serverLog == nil && defaults.skills == nil && defaults.html == nil)
      #expect(!defaults.llamaCppPython && !defaults.json)
      #expect(defaults.prompts == 40 && defaults.budget == 2_000 && defaults.answerTokens == 48)
    }

    @Test func `a missing or bad option is a usage error that names it`() {
      #expect(usageError(["--model", "m"]) == "check-cache needs --endpoint URL")
      #expect(usageError(["--endpoint", "http://127.0.0.1:1/v1"]) == "check-cache needs --model NAME")
      #expect(
        usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", ""]) == "check-cache needs --model NAME"
      )
      #expect(
        usageError(["--endpoint", "not a url", "--model", "m"]) == #"--endpoint takes a URL, not "not a url""#
      )
      for count in ["0", "41"] {
        #expect(
          usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--prompts", count])
            == "--prompts takes 1 to 40, not \(count)")
      }
      #expect(
        usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--budget", "0"])
          == "--budget takes 1 or more tokens, not 0")
      #expect(
        usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--answer-tokens", "-1"])
          == "--answer-tokens takes 1 or more tokens, not -1")
      #expect(
        usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--prompts", "many"])
          == #"--prompts takes a whole number, not "many""#)
      #expect(
        usageError(["--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--block-size", "1"])
          == "unknown option --block-size")
    }

    @Test func `bad options exit with status 2 and the usage, before any request`() async {
      for arguments in [
        ["check-cache", "--model", "m"],
        ["check-cache", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--prompts", "0"],
        [
          "check-cache", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--server-log",
          "/nonexistent/server.log",
        ],
      ] {
        let run = await CommandRun.run(arguments)
        #expect(run.code == .usage, "\(arguments): \(run.error)")
        #expect(run.error.contains("usage: contextkit check-cache"), "\(arguments)")
        #expect(run.output.isEmpty, "\(arguments)")
      }
    }
  }

  @Suite(
    "check-cache against the local server", .serialized, .holding(.standardWindow),
    .enabled(
      if: localEndpoint != nil,
      "CONTEXTKIT_TEST_ENDPOINT is not set: check-cache against the live server is skipped"))
  struct LocalServer {
    /// Three prompts, short answers: what the command prints, not what the model says.
    private func arguments(json: Bool) throws -> [String] {
      let endpoint = try #require(localEndpoint)
      var arguments = [
        "check-cache", "--endpoint", endpoint, "--model", "smollm2", "--llama-cpp-python", "--prompts", "3",
        "--answer-tokens", "8",
      ]
      if let localServerLog { arguments += ["--server-log", localServerLog] }
      return arguments + (json ? ["--json"] : [])
    }

    /// What one run with `--html` printed and wrote: the table's test and the page's read the
    /// same run, because each run's first prompt (about 800 tokens) is evaluated anew by the
    /// server that every live suite shares.
    private struct TableAndPage: Sendable {
      var run: CommandRun
      var pagePath: String
      var html: String
    }

    private static let tableAndPage = Task { () throws -> TableAndPage in
      let folder = try TemporaryFolder(named: "check-cache")
      defer { folder.remove() }
      let page = folder.url("page.html")
      let run = await CommandRun.run(try Self().arguments(json: false) + ["--html", page.path])
      let html = run.code == .success ? try String(contentsOf: page, encoding: .utf8) : ""
      return TableAndPage(run: run, pagePath: page.path, html: html)
    }

    @Test func `the table has a row per generation and the totals`() async throws {
      let run = try await Self.tableAndPage.value.run
      #expect(run.code == .success, "\(run.error)")
      let lines = run.output.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("check-cache: 3 prompts of ") == true, "\(run.output)")
      #expect(lines.dropFirst().first?.hasPrefix("    #  turn") == true, "\(run.output)")
      #expect(lines.contains { $0.hasPrefix("total") })
      #expect(lines.filter { $0.hasPrefix("    0  0.0") }.count == 1, "\(run.output)")
    }

    @Test func `--html writes the page with the per-generation table and names it`() async throws {
      let shared = try await Self.tableAndPage.value
      #expect(shared.run.code == .success, "\(shared.run.error)")
      #expect(shared.run.output.hasSuffix("\nwrote \(shared.pagePath)\n"), "\(shared.run.output)")
      #expect(shared.html.contains("Prompt-cache check of smollm2 at "))
      #expect(shared.html.contains("prompt (predicted)"))
    }

    @Test func `--json gives the reports, the summary and the generations left out`() async throws {
      let run = await CommandRun.run(try arguments(json: true))
      #expect(run.code == .success, "\(run.error)")
      let object = try run.jsonObject()
      #expect(
        CommandRun.keys(object) == ["endpoint", "model", "notCompared", "reports", "summary", "unexplained"])
      #expect(object["model"] as? String == "smollm2")
      let reports = try #require(object["reports"] as? [[String: Any]])
      #expect(reports.count >= 3)
      #expect(reports.first?["promptTokenCount"] as? Int ?? 0 > 0)
    }
  }
}
