import CacheAnalysis
import Foundation
import ModelSession
import Synchronization
import TestSupport

/// A session run with an observer: the observer's reports and the session's records.
struct ObservedRun {
  var reports: [CacheImpactReport]
  var records: [GenerationRecord]
  var script: ModelScript
}

/// A run whose number of failed turns is not the one the test expected.
struct UnexpectedTurnFailures: Error, CustomStringConvertible {
  var expected: Int
  var failures: [String]
  var description: String {
    "expected \(expected) failed turns, got \(failures.count): \(failures.joined(separator: "; "))"
  }
}

/// Runs `prompts` through a session on `script` with `profile`, observed from
/// the start. Exactly `expectedFailures` turns must fail (a scripted
/// failure); the run goes on past them, and throws when the count differs,
/// so that an unexpected failure is never passed over.
func observedRun(
  profile: some DynamicProfile, script: ModelScript, prompts: [String],
  model: PromptCacheModel = PromptCacheModel(), expectedFailures: Int = 0,
  between: @Sendable (Int) async -> Void = { _ in }
) async throws -> ObservedRun {
  let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
  let observer = CacheImpactObserver(session: session, model: model)
  var recordIterator = session.generationRecords.makeAsyncIterator()
  var generations = 0
  var failures: [String] = []
  for (index, prompt) in prompts.enumerated() {
    await between(index)
    let before = script.requests.count
    do {
      _ = try await session.respond(to: prompt)
    } catch {
      failures.append("turn \(index) (\(prompt)): \(error)")
    }
    generations += script.requests.count - before
  }
  guard failures.count == expectedFailures else {
    throw UnexpectedTurnFailures(expected: expectedFailures, failures: failures)
  }
  var reports: [CacheImpactReport] = []
  var reportIterator = observer.reports.makeAsyncIterator()
  var records: [GenerationRecord] = []
  for _ in 0..<generations {
    if let report = await reportIterator.next() { reports.append(report) }
    if let record = await recordIterator.next() { records.append(record) }
  }
  return ObservedRun(reports: reports, records: records, script: script)
}

/// A switch that tests flip between turns.
final class Flag: Sendable {
  private let value = Mutex(false)

  var isOn: Bool {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}

/// Offers the weather tool while the flag is on.
struct ToolWhenOn: DynamicInstructions {
  let flag: Flag

  var body: ProfileContent { ProfileContent() }

  func resolve(into resolution: inout ProfileResolution) async throws {
    if flag.isOn { resolution.append(WeatherTool()) }
  }
}

/// Asks for high reasoning while the flag is on.
struct ReasoningWhenOn<Content: DynamicProfile>: DynamicProfile {
  let content: Content
  let flag: Flag

  var body: Self { self }

  func resolve(into resolution: inout ProfileResolution) async throws {
    try await content.resolve(into: &resolution)
    if flag.isOn { resolution.reasoningLevel = .high }
  }
}

/// A model failure for scripts.
struct ScriptedFailure: Error {}
