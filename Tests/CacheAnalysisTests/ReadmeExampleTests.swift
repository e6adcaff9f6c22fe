import AgentSkills
import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ReadmeExampleTests {
  /// The README's compaction example, run through a session so the README stays true.
  @Test(.timeLimit(.minutes(20))) func `the README's compaction example runs and reports every generation`()
    async throws
  {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../SkillsLibrary").standardizedFileURL
    let library = try SkillsLibrary(root: root)
    let activations = SkillActivations()
    let reports = Mutex<[CacheImpactReport]>([])
    let profile = Profile {
      Instructions("You are a support agent for the Acme router.")
      Skills(activations: activations, skills: library.skills)
    }
    .reportingCacheImpact { report in reports.withLock { $0.append(report) } }
    .compactingHistory(tokenBudget: 3_000)
    .droppingCompletedToolCalls()
    let script = ModelScript(
      (0..<6).map { _ in ScriptStep.text(String(repeating: "A long answer. ", count: 80)) })
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    for turn in 0..<6 {
      try await session.respond(to: "Question \(turn): my router blinks red.")
    }
    let collected = reports.withLock { $0 }
    #expect(collected.count == 6)
    #expect(collected.dropFirst().allSatisfy { $0.reusedTokenCount > 0 })
  }
}
