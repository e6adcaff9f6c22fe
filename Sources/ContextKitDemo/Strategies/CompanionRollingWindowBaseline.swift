import ModelSession

/// BASELINE, not a ContextKit strategy: the companion package's rolling
/// window, reproduced for the benchmark. It keeps the last `entryCount`
/// entries of the history, trimming on every generation once the history is
/// longer.
///
/// It reproduces the known defects on purpose (see DESIGN.md, "The anchors"):
/// a plain suffix of the entries, so it splits prompts from their answers and
/// tool calls from their outputs, drops the instructions entry once the
/// history is longer than the window, and bounds entries rather than tokens,
/// so large tool outputs can still overflow the context. The one difference:
/// a count below 1 throws instead of crashing. Use ContextKit's
/// `rollingWindow(_:)` in apps.
package struct CompanionRollingWindowBaseline: DynamicProfileModifier {
  /// A window of fewer than 1 entry.
  package struct InvalidCount: Error, CustomStringConvertible {
    /// The count given.
    package var count: Int
    /// Says so.
    package var description: String {
      "baseline rollingWindow(entries: \(count)): the count must be at least 1"
    }
  }

  /// The stage's name in generation records: `baseline.rollingWindow(entries:)`.
  package var name: String { "baseline.rollingWindow(entries:)" }
  /// The entries kept.
  package let entryCount: Int

  /// Creates the baseline window.
  package init(entryCount: Int) {
    self.entryCount = entryCount
  }

  /// The last `entryCount` entries.
  package func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    guard entryCount >= 1 else { throw InvalidCount(count: entryCount) }
    guard history.entries.count > entryCount else { return history }
    context.record(
      GenerationNote(
        source: name, kind: .historyRewritten,
        message: "kept the last \(entryCount) of \(history.entries.count) entries",
        counts: [.kept: entryCount, .entriesDropped: history.entries.count - entryCount]))
    return Transcript(entries: Array(history.entries.suffix(entryCount)))
  }
}
