import CacheAnalysis
import ModelSession

/// The least a server must process for a conversation, whatever the history
/// strategy: per generation, the prompt tokens that are genuinely new.
///
/// A generation's new tokens are those of the parts of its request that
/// neither the previous request nor the previous generation's output held:
/// the new prompt and tool outputs, and a tool definition, the settings, the
/// response schema or the instructions text when they changed (an
/// instructions skill switching on, say). They are measured on the stored
/// history, before any modifier, so the floor only differs between
/// strategies where a strategy changes what the conversation adds (a prompt
/// skill's body delivered again after a cut dropped it). Everything a strategy makes the server process beyond it is the
/// cost of that strategy: history re-read after a cut, a summary, whatever a
/// changed instructions text forced to be read again, and the rounding of
/// the reused prefix to whole cache blocks. The first generation is new
/// whole.
///
/// ```swift
/// let floor = try await ReprocessingFloor.newTokenCounts(of: run.records).reduce(0, +)
/// ```
package enum ReprocessingFloor {
  /// The new tokens of each record's request, in order.
  package static func newTokenCounts(
    of records: [GenerationRecord], model: PromptCacheModel = PromptCacheModel()
  ) async throws -> [Int] {
    var counts: [Int] = []
    counts.reserveCapacity(records.count)
    var previousHeader: Set<String> = []
    var seenEntries: Set<String> = []
    for record in records {
      let instructions = record.storedHistory.entries.prefix { entry in
        if case .instructions = entry { true } else { false }
      }
      let header = try await model.render(
        PromptRequest(
          toolDefinitions: record.toolDefinitions, contextOptions: record.contextOptions,
          schema: record.schema, transcript: Transcript(entries: Array(instructions))))
      var count = 0
      for block in header.blocks where !previousHeader.contains(block.text) {
        count += block.tokenCount
      }
      let fresh = record.storedHistory.entries.filter { entry in
        if case .instructions = entry { return false }
        return !seenEntries.contains(entry.id)
      }
      count += try await model.entryBlocks(fresh, startingAt: 1).reduce(0) { $0 + $1.tokenCount }
      counts.append(count)
      previousHeader = Set(header.blocks.map(\.text))
      // What the server holds after this generation: its request and its output.
      for entry in fresh { seenEntries.insert(entry.id) }
      for entry in record.output { seenEntries.insert(entry.id) }
    }
    return counts
  }
}
