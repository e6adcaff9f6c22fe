import ModelSession

/// Keeps the newest part of the history that fits a size, cutting only where
/// a turn starts.
///
/// The instructions entry and any summary entries right after it are always
/// kept; then come the newest whole turns (a turn starts at a prompt) whose
/// size, with the instructions, fits. A tool call is never separated from its
/// output. When even the current turn does not fit, the current turn is kept
/// whole and a note says so: the model will then answer that the context is
/// too large, which is the truth.
///
/// A size of 0 or less makes `transformHistory` throw
/// ``HistoryCompressionError/invalidSize(modifier:size:)``.
///
/// Cache cost: once the window is full, the first kept turn changes every few
/// turns, and each change re-processes the whole history after the
/// instructions. Use ``SummarizeHistory`` for a prefix that stays stable.
public struct RollingWindow: DynamicProfileModifier {
  /// The stage's name in generation records: `rollingWindow`.
  public var name: String { "rollingWindow" }
  /// The most history the model sees, instructions included.
  public let size: HistorySize
  /// What counts tokens, for a size in tokens.
  public let tokenCounter: any TokenCounter
  /// Where the modifier remembers when the tools or the instructions changed,
  /// to say again what it put back after the cut when they do.
  public let prefixBreaks: PrefixBreakLog

  /// Creates the modifier.
  ///
  /// - Parameters:
  ///   - size: the most history the model sees, instructions included; at least 1.
  ///   - tokenCounter: what counts tokens for a size in tokens; `nil` estimates them.
  ///   - prefixBreaks: where changes of the tools or the instructions are remembered.
  public init(
    _ size: HistorySize, tokenCounter: (any TokenCounter)? = nil, prefixBreaks: PrefixBreakLog = .shared
  ) {
    self.size = size
    self.tokenCounter = tokenCounter ?? EstimatingTokenCounter()
    self.prefixBreaks = prefixBreaks
  }

  /// Creates a window of `entries` entries, instructions included (the companion package's spelling).
  public init(entries: Int) {
    self.init(.entries(entries))
  }

  /// Creates a window of `tokens` tokens, instructions included.
  public init(tokens: Int, tokenCounter: (any TokenCounter)? = nil) {
    self.init(.tokens(tokens), tokenCounter: tokenCounter)
  }

  /// Keeps the instructions and the newest turns that fit.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    try size.validated(for: name)
    let entries = history.entries
    let layout = HistoryLayout(entries)
    let measure = try await HistoryMeasure(entries, unit: size, counter: tokenCounter)
    let ledger = try await RetainedContextLedger(
      entries, unit: size.retainedUnit, counter: tokenCounter, retention: context.contextRetention)
    let cut = RetainedWindow(
      layout: layout, measure: measure, ledger: ledger, budget: size.value, end: entries.count)
    if !cut.fits {
      context.record(
        HistoryNote.currentTurnOverBudget(
          source: name, kept: measure.size(0..<layout.headEnd) + measure.size(cut.start..<entries.count),
          budget: size.value, unit: size.unitName))
    }
    // Observed at every generation, so that a change of the instructions is seen when it happens.
    let prefixChanged = await prefixBreaks.breaks(in: entries, layout: layout, context: context)
      .contains(entries.count)
    guard cut.start > layout.headEnd else { return history }
    if let previousEnd = HistoryLayout.previousGenerationEnd(entries, headEnd: layout.headEnd) {
      let previous = RetainedWindow(
        layout: layout, measure: measure, ledger: ledger, budget: size.value, end: previousEnd)
      if previous.start != cut.start {
        context.record(
          HistoryNote.windowMoved(
            source: name, firstKeptEntry: entries[cut.start].id, dropped: cut.start - layout.headEnd))
      }
      // The replay measures the previous generation with today's instructions: when they
      // changed now, it cannot tell what the model saw, so what is put back is said again.
      if previous.start != cut.start || previous.reattachment.keys != cut.reattachment.keys || prefixChanged {
        cut.reattachment.record(in: context, source: name)
      }
    } else {
      cut.reattachment.record(in: context, source: name)
    }
    return cut.apply(to: entries, head: layout.headEnd)
  }

  /// The first entry to keep for a window of `budget` over `entries[..<end]`,
  /// and whether the result fits.
  static func cut(
    layout: HistoryLayout, measure: HistoryMeasure, budget: Int, end: Int
  ) -> (
    start: Int, fits: Bool
  ) {
    let headSize = measure.size(0..<layout.headEnd)
    let last = layout.lastCutPointIndex(before: end)
    // Sizes shrink as the cut moves later, so the first cut point that fits is found by bisection.
    var low = 0
    var high = last
    while low < high {
      let middle = (low + high) / 2
      if headSize + measure.size(layout.cutPoints[middle]..<end) <= budget {
        high = middle
      } else {
        low = middle + 1
      }
    }
    let start = layout.cutPoints[low]
    return (start, headSize + measure.size(start..<end) <= budget)
  }

  /// The head, then `reattaching` (retained context put back after the cut),
  /// then the entries from `start`.
  static func keeping(
    _ entries: [Transcript.Entry], head: Int, from start: Int, reattaching: [Transcript.Entry] = []
  ) -> Transcript {
    var kept: [Transcript.Entry] = []
    kept.reserveCapacity(head + reattaching.count + entries.count - start)
    kept.append(contentsOf: entries[..<head])
    kept.append(contentsOf: reattaching)
    kept.append(contentsOf: entries[start...])
    return Transcript(entries: kept)
  }
}

extension DynamicProfile {
  /// Keeps the newest whole turns that fit in `entries` entries, with the
  /// instructions (see ``RollingWindow``): a tool call never loses its output,
  /// and the instructions are never dropped.
  ///
  /// ```swift
  /// Profile { Instructions("You help with recipes.") }
  ///   .rollingWindow(entries: 20)
  /// ```
  public func rollingWindow(entries: Int) -> ModifiedProfile<Self, RollingWindow> {
    modifier(RollingWindow(entries: entries))
  }

  /// Keeps the newest whole turns that fit in `tokens` tokens, with the
  /// instructions (see ``RollingWindow``).
  ///
  /// ```swift
  /// Profile { Instructions("You help with recipes.") }
  ///   .rollingWindow(tokens: 4_000)
  /// ```
  public func rollingWindow(
    tokens: Int, tokenCounter: (any TokenCounter)? = nil
  ) -> ModifiedProfile<Self, RollingWindow> {
    modifier(RollingWindow(tokens: tokens, tokenCounter: tokenCounter))
  }

  /// Keeps the newest whole turns that fit `size`, with the instructions (see ``RollingWindow``).
  ///
  /// ```swift
  /// Profile { Instructions("You help with recipes.") }
  ///   .rollingWindow(.tokens(4_000))
  /// ```
  public func rollingWindow(
    _ size: HistorySize, tokenCounter: (any TokenCounter)? = nil
  ) -> ModifiedProfile<Self, RollingWindow> {
    modifier(RollingWindow(size, tokenCounter: tokenCounter))
  }
}
