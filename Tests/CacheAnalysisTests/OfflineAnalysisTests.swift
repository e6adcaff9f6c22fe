import AgentSkills
import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import Synchronization
import TestSupport
import Testing

private func skillsProfile(_ activations: SkillActivations) -> some DynamicProfile {
  Profile {
    "You review pull requests."
    WeatherTool()
    Skills(activations: activations) {
      Skill(name: "style", description: "Style rules", prompt: "Use guard for early exits.")
      Skill(name: "tone", description: "House tone", instructions: "Be kind.", allowsDeactivation: true)
    }
  }
}

private let toggle = Skills.toggleToolName

private func steps() -> [ScriptStep] {
  [
    .toolCall(name: toggle, arguments: #"{"skill":"style"}"#), .text("Loaded."),
    .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Sunny."),
    .toolCall(name: toggle, arguments: #"{"skill":"tone"}"#), .text("Kindly."),
    .text("Plain."),
  ]
}

@Suite("Offline analysis", .timeLimit(.minutes(20))) struct OfflineAnalysisTests {
  @Test func `the offline analyzer gives the observer's reports for the saved records`() async throws {
    let script = ModelScript(steps() + [.failure(ScriptedFailure()), .text("After.")])
    let profile = skillsProfile(SkillActivations()).rollingWindow(.tokens(220))
    let model = try PromptCacheModel(blockSize: 16, lookback: 2)
    let run = try await observedRun(
      profile: profile, script: script, prompts: ["one", "two", "three", "four", "five", "six"], model: model,
      expectedFailures: 1)
    #expect(run.reports.count == 9)
    let data = try JSONEncoder().encode(run.records)
    let records = try CacheImpactAnalyzer.records(from: data)
    let offline = try await CacheImpactAnalyzer.reports(for: records, model: model)
    #expect(offline == run.reports)
    #expect(Set(run.reports.map(\.cause.kind)).count >= 4)
  }

  @Test func `records that cannot be read give a typed error naming the file`() throws {
    let notJSON = #expect(throws: CacheAnalysisError.self) {
      try CacheImpactAnalyzer.records(from: Data("not json".utf8), name: "saved.json")
    }
    guard case .unreadableRecords(let path, _) = try #require(notJSON) else {
      Issue.record("expected unreadableRecords")
      return
    }
    #expect(path == "saved.json")
    let missing = #expect(throws: CacheAnalysisError.self) {
      try CacheImpactAnalyzer.records(contentsOf: URL(filePath: "/nonexistent/records.json"))
    }
    #expect(missing?.description.hasPrefix("/nonexistent/records.json: ") == true)
  }

  @Test func `a bad line in a folder's records file is named with its line and byte, from line 1 on`() throws
  {
    let temporary = try TemporaryFolder(named: "bad-lines")
    defer { temporary.remove() }
    let folder = temporary.url
    let file = temporary.url("a.jsonl")
    try Data("not json\n".utf8).write(to: file)
    let first = #expect(throws: CacheAnalysisError.self) {
      try CacheImpactAnalyzer.conversations(contentsOf: folder)
    }
    guard case .unreadableRecords(let path, let reason) = try #require(first) else {
      Issue.record("expected unreadableRecords")
      return
    }
    #expect(path == file.path)
    #expect(reason.hasPrefix("line 1 (byte 0): "), "\(reason)")
    // A good header line, then a bad second line that starts right after the header's newline.
    let encoded = try GenerationRecordArchive.encode([record(sent: [promptEntry("a")])])
    let header = try #require(String(decoding: encoded, as: UTF8.self).split(separator: "\n").first)
    try Data((header + "\nnot json\n").utf8).write(to: file)
    let second = #expect(throws: CacheAnalysisError.self) {
      try CacheImpactAnalyzer.conversations(contentsOf: folder)
    }
    #expect(
      second?.description.hasPrefix(
        "\(file.path): cannot read generation records: line 2 (byte \(header.utf8.count + 1)): ") == true)
  }

  @Test func `the reporting modifier predicts what the observer reports`() async throws {
    let predictions = Mutex<[CacheImpactReport]>([])
    let script = ModelScript(steps())
    let profile = skillsProfile(SkillActivations())
      .reportingCacheImpact { report in predictions.withLock { $0.append(report) } }
    let run = try await observedRun(
      profile: profile, script: script, prompts: ["one", "two", "three", "four"])
    let predicted = predictions.withLock { $0 }
    #expect(predicted.map(\.promptTokenCount) == run.reports.map(\.promptTokenCount))
    #expect(predicted.map(\.reusedTokenCount) == run.reports.map(\.reusedTokenCount))
    #expect(predicted.map(\.cause.kind) == run.reports.map(\.cause.kind))
    #expect(predicted.map(\.requestID) == run.reports.map(\.requestID))
    #expect(run.records.allSatisfy { $0.sentTranscript == $0.stages.last?.transcript })
  }

  @Test func `the reporting modifier names a compaction that ran before it`() async throws {
    let predictions = Mutex<[CacheImpactReport]>([])
    var steps: [ScriptStep] = []
    for turn in 0..<20 {
      if turn % 4 == 0 { steps.append(.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#)) }
      steps.append(.text(words(40, tag: "a\(turn)-")))
    }
    let profile = Profile {
      "You help."
      WeatherTool()
    }
    .reportingCacheImpact { report in predictions.withLock { $0.append(report) } }
    .compactingHistory(tokenBudget: 700)
    let run = try await observedRun(
      profile: profile, script: ModelScript(steps), prompts: (0..<20).map { words(12, tag: "q\($0)-") })
    let predicted = predictions.withLock { $0 }
    #expect(predicted.map(\.reusedTokenCount) == run.reports.map(\.reusedTokenCount))
    #expect(predicted.map(\.cause.groupingKey) == run.reports.map(\.cause.groupingKey))
    #expect(run.reports.contains { $0.cause.groupingKey == "historyRewritten(compactingHistory)" })
  }
}
