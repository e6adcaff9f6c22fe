import Foundation
import ModelSession

/// The state ``ReportingCacheImpact`` keeps between generations: an analyzer
/// and the last history it saw.
///
/// ```swift
/// let tracker = CacheImpactTracker(model: try PromptCacheModel(blockSize: 128))
/// let profile = Profile { "You help." }.reportingCacheImpact(tracker: tracker) { print($0) }
/// // later
/// print(await tracker.summary)
/// ```
public actor CacheImpactTracker {
  private var analyzer: CacheImpactAnalyzer
  private var previousHistory: [Transcript.Entry] = []

  /// Creates a tracker with nothing cached.
  public init(model: PromptCacheModel = PromptCacheModel()) {
    analyzer = CacheImpactAnalyzer(model: model)
  }

  /// The predictions so far, in order.
  public var reports: [CacheImpactReport] { analyzer.reports }

  /// The totals of the predictions so far.
  public var summary: CacheImpactSummary { analyzer.summary }

  /// Predicts the impact of the request about to be sent with `history`.
  public func predict(history: Transcript, context: ProfileModifierContext) async throws -> CacheImpactReport
  {
    let entries = history.entries
    // Worked on a copy and stored back: a session's generations run one at a time.
    var working = analyzer
    if !previousHistory.isEmpty {
      try await working.replaceLatestOutput(with: Self.output(after: previousHistory, in: entries))
    }
    previousHistory = entries
    var instructions: Transcript.Instructions?
    if case .instructions(let entry) = entries.first { instructions = entry }
    let record = GenerationRecord(
      requestID: UUID(uuidString: context.requestID) ?? UUID(), turnIndex: context.turnIndex,
      round: context.round, date: Date(), storedHistory: history, stages: [], sentTranscript: history,
      instructions: instructions, toolDefinitions: context.toolDefinitions,
      generationOptions: GenerationOptions(), contextOptions: ContextOptions(), schema: nil, output: [],
      usage: .zero, notes: context.notes, outcome: .completed)
    let report = try await working.analyze(record)
    analyzer = working
    return report
  }

  /// The model's entries that follow the previous request in the new history:
  /// the run of responses, reasoning and tool calls right after the entries
  /// the two histories share (compared by id).
  static func output(after previous: [Transcript.Entry], in entries: [Transcript.Entry]) -> [Transcript.Entry]
  {
    let earlier = previous.filter { !$0.isInstructions }.map(\.id)
    let current = entries.filter { !$0.isInstructions }
    guard current.count >= earlier.count, zip(current, earlier).allSatisfy({ $0.id == $1 }) else {
      // The history was rewritten before this modifier: take the model's
      // entries just before the trailing prompt or tool outputs.
      var end = current.count
      while end > 0, current[end - 1].isGenerationInput { end -= 1 }
      var start = end
      let known = Set(earlier)
      while start > 0, current[start - 1].isModelOutput, !known.contains(current[start - 1].id) { start -= 1 }
      return Array(current[start..<end])
    }
    return Array(current[earlier.count...].prefix { $0.isModelOutput })
  }
}

extension Transcript.Entry {
  /// A prompt or a tool output: what a session appends before a generation.
  fileprivate var isGenerationInput: Bool {
    switch self {
    case .prompt, .toolOutput: true
    default: false
    }
  }

  /// A response, reasoning or tool calls: what a generation produces.
  fileprivate var isModelOutput: Bool {
    switch self {
    case .response, .reasoning, .toolCalls: true
    default: false
    }
  }
}
