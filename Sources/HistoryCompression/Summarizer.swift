import ModelSession

/// Runs one summarization: a fresh `LanguageModelSession` on the summarizer
/// model, bounded by a timeout.
struct Summarizer: Sendable {
  /// The summarizer took longer than its timeout.
  struct Timeout: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "the summarizer did not answer within \(timeout)" }
  }

  /// The summarizer answered with nothing.
  struct EmptySummary: Error, CustomStringConvertible {
    var description: String { "the summarizer answered with an empty summary" }
  }

  let model: any LanguageModel
  let instructions: Instructions
  let timeout: Duration

  /// The summary of `entries`, with `previousSummary` folded in.
  func summarize(previousSummary: String?, entries: ArraySlice<Transcript.Entry>) async throws -> String {
    let prompt = SummarizerPrompt.text(previousSummary: previousSummary, entries: entries)
    let summary = try await withThrowingTaskGroup(of: String.self) { group in
      group.addTask { try await self.ask(self.model, prompt) }
      group.addTask {
        try await Task.sleep(for: timeout)
        throw Timeout(timeout: timeout)
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else { throw Timeout(timeout: timeout) }
      return first
    }
    let trimmed = summary.trimmingWhitespace
    guard !trimmed.isEmpty else { throw EmptySummary() }
    return trimmed
  }

  private func ask(_ model: some LanguageModel, _ prompt: String) async throws -> String {
    let session = LanguageModelSession(model: model, instructions: instructions)
    return try await session.respond(to: prompt).content
  }
}

extension String {
  /// The string without leading and trailing spaces and newlines.
  var trimmingWhitespace: String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view.removeFirst() }
    while let last = view.last, last.isWhitespace { view.removeLast() }
    return String(view)
  }
}
