import AgentSkills
import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

private let exact = PromptCacheModel()

@Suite("Attribution through a session", .timeLimit(.minutes(10))) struct AttributionTests {
  @Test func `a plain conversation is append only and reuses what came before`() async throws {
    let script = ModelScript([
      .text("One."), .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Two."),
      .text("Three."),
    ])
    let profile = Profile {
      "You are terse."
      WeatherTool()
    }
    let run = try await observedRun(
      profile: profile, script: script, prompts: ["a", "b", "c"], model: try PromptCacheModel(blockSize: 1))
    #expect(run.reports.map(\.cause.kind) == [.coldStart, .appendOnly, .appendOnly, .appendOnly])
    for (previous, report) in zip(run.reports, run.reports.dropFirst()) {
      #expect(report.reusedTokenCount > previous.promptTokenCount)
      #expect(report.divergence == nil)
    }
    // The scripted model reports its prompt size but not its cache: unknown, not a miss.
    #expect(
      run.reports[0].serverUsage == CacheImpactReport.ServerUsage(totalTokenCount: 10, cachedTokenCount: nil))
    #expect(run.reports.allSatisfy { $0.serverComparison == nil })
  }

  @Test func `an instructions skill's activation and deactivation are attributed to skills`() async throws {
    let activations = SkillActivations()
    let toggle = Skills.toggleToolName
    let script = ModelScript([
      .toolCall(name: toggle, arguments: #"{"skill":"tone"}"#), .text("Warm."),
      .toolCall(name: toggle, arguments: #"{"skill":"tone"}"#), .text("Plain."),
    ])
    let profile = Profile {
      "You write release notes."
      Skills(activations: activations) {
        Skill(
          name: "tone", description: "House tone", instructions: "Write warmly.", allowsDeactivation: true)
      }
    }
    let run = try await observedRun(profile: profile, script: script, prompts: ["write", "again"])
    #expect(
      run.reports.map(\.cause.kind) == [.coldStart, .instructionsChanged, .appendOnly, .instructionsChanged])
    #expect(run.reports[1].cause.source == "skills")
    #expect(run.reports[1].cause.detail.contains("activated tone"))
    #expect(run.reports[3].cause.detail.contains("deactivated tone"))
    #expect(run.reports[1].divergence?.location == .instructions)
    #expect(run.reports[1].reusedTokenCount > 0)
  }

  @Test func `a tool that joins the list is a tools change`() async throws {
    let flag = Flag()
    let script = ModelScript([.text("One."), .text("Two.")])
    let profile = Profile {
      "You help."
      ToolWhenOn(flag: flag)
    }
    let run = try await observedRun(profile: profile, script: script, prompts: ["a", "b"]) { index in
      flag.isOn = index == 1
    }
    #expect(run.reports[1].cause.kind == .toolsChanged)
    #expect(run.reports[1].cause.detail == "the tool list added weather")
    #expect(run.reports[1].reusedTokenCount == 0)
  }

  @Test func `a response schema that appears is a schema change`() async throws {
    let script = ModelScript([.text("One."), .text("42")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), instructions: "You count.")
    let observer = CacheImpactObserver(session: session)
    try await session.respond(to: "a")
    _ = try await session.respond(to: "b", schema: Int.generationSchema)
    let reports = await observer.reportsThroughLatestGeneration(of: session)
    #expect(reports.count == 2)
    let report = try #require(reports.last)
    #expect(report.cause.kind == .responseSchemaChanged)
    #expect(report.divergence?.location == .responseSchema)
  }

  @Test func `a reasoning level that changes is a settings change`() async throws {
    let flag = Flag()
    let script = ModelScript([.text("One."), .text("Two.")])
    let profile = ReasoningWhenOn(content: Profile { "You think." }, flag: flag)
    let run = try await observedRun(profile: profile, script: script, prompts: ["a", "b"]) { index in
      flag.isOn = index == 1
    }
    #expect(run.reports[1].cause.kind == .settingsChanged)
    #expect(run.reports[1].cause.detail == "the settings went from none to reasoning high")
  }

  @Test func `a modifier that trims the history is named by its stage`() async throws {
    let script = ModelScript([.text("One."), .text("Two."), .text("Three.")])
    let profile = Profile { "You are terse." }
      .rollingWindow(.entries(3))
      .historyTransform { $0 }
    let run = try await observedRun(profile: profile, script: script, prompts: ["a", "b", "c"])
    #expect(run.reports[1].cause.kind == .historyRewritten)
    #expect(run.reports[1].cause.source == "rollingWindow")
    #expect(run.reports[1].divergence?.location == .entry(index: 1, kind: "prompt"))
    let summary = CacheImpactSummary(reports: run.reports)
    #expect(summary.invalidations.map(\.cause) == ["historyRewritten(rollingWindow)"])
    #expect(summary.invalidations.first?.count == 2)
  }

  @Test func `a modifier that rewrites the previous answer is blamed, though it keeps every entry`()
    async throws
  {
    let script = ModelScript([.text("One."), .text("Two.")])
    let profile = Profile { "You are terse." }
      .historyTransform { history in
        Transcript(
          entries: history.entries.map { entry in
            guard case .response(let response) = entry else { return entry }
            return .response(
              Transcript.Response(
                id: response.id, assetIDs: response.assetIDs,
                segments: [.text(Transcript.TextSegment(content: "[answer withheld]"))]))
          })
      }
    let run = try await observedRun(profile: profile, script: script, prompts: ["a", "b"])
    // The stored history extends the previous one and its answer; what was sent does not:
    // the answer came back rewritten, so the stage that rewrote it is the cause.
    #expect(run.reports[1].cause.kind == .historyRewritten)
    #expect(run.reports[1].cause.source == "historyTransform")
    #expect(
      run.reports[1].cause.detail == "historyTransform rewrote history that the previous generation sent")
  }

  @Test func `after a summary is committed, the next compaction is still the summarizer's`() async throws {
    // A threshold of 3 entries, instructions included: turn 2 (4 entries) and turn 3 (the
    // committed summary prompt, its answer and the new prompt, 5 with the summary apart) both
    // compact. Turn 3's stored history is turn 2's summarizeHistory stage plus its answer, not
    // turn 2's stored history plus its answer: the cause is the stage, not a replaced transcript.
    let summarizer = ScriptedLanguageModel(script: ModelScript([.text("A greeting."), .text("Colours.")]))
    let profile = Profile { "You help." }
      .summarizeHistory(entryThreshold: 3, model: summarizer, options: .init(store: SummaryStore()))
    let script = ModelScript([.text("Hi."), .text("Blue."), .text("Green.")])
    let run = try await observedRun(
      profile: profile, script: script, prompts: ["hello", "colour?", "another?"])
    #expect(run.reports.map(\.cause.kind) == [.coldStart, .historyRewritten, .historyRewritten])
    #expect(run.reports[2].cause.source == "summarizeHistory")
  }

  @Test func `a turn rolled back after a failure changes the stored history`() async throws {
    let script = ModelScript([.text("One."), .failure(ScriptedFailure()), .text("Three.")])
    let run = try await observedRun(
      profile: Profile { "You help." }, script: script, prompts: ["a", "b", "c"], expectedFailures: 1)
    #expect(run.reports.map(\.cause.kind) == [.coldStart, .appendOnly, .storedHistoryChanged])
    #expect(run.records[1].outcome != .completed)
    #expect(run.reports.map(\.completed) == [true, false, true])
  }
}
