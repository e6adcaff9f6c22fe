import Foundation
import Synchronization

/// A token counter that estimates from length: about one token for every
/// four bytes of UTF-8 text.
///
/// It is an estimate, not a tokenizer: English prose comes out close, code
/// and non-Latin scripts less so. It is deterministic (the same entry always
/// gives the same count) and cheap. What it counts:
///
/// - text: its UTF-8 length divided by `bytesPerToken`, rounded up;
/// - structured content and tool-call arguments: the length of their JSON text;
/// - images: a fixed `imageTokenCount`, whatever their size;
/// - custom segments: the length of their JSON form;
/// - each entry and each tool call: `framingTokenCount` more, for the role
///   markers and separators a chat template adds.
///
/// Counts of entries whose estimate means writing JSON (tool calls,
/// structured and custom content) are cached by entry id in a
/// ``TokenCountCache`` shared by every counter with the same settings, so
/// that measuring a growing transcript only encodes the new entries. Plain
/// text is counted each time: adding up UTF-8 lengths costs less than a
/// lookup. Instructions entries are never cached, because a session keeps
/// their id while their content changes.
///
/// ```swift
/// let counter = EstimatingTokenCounter()
/// let tokens = try await counter.tokenCount(of: request)
/// ```
public struct EstimatingTokenCounter: TokenCounter {
  /// UTF-8 bytes per token.
  public let bytesPerToken: Int
  /// What one image costs.
  public let imageTokenCount: Int
  /// What framing each entry and each tool call adds.
  public let framingTokenCount: Int
  /// The cache of entry counts.
  public let cache: TokenCountCache

  /// Creates a counter. Values below their minimum (1 byte a token, 0 tokens)
  /// are raised to it. Without `cache`, the counter shares the cache of every
  /// counter with the same settings.
  public init(
    bytesPerToken: Int = 4, imageTokenCount: Int = 768, framingTokenCount: Int = 4,
    cache: TokenCountCache? = nil
  ) {
    self.bytesPerToken = max(1, bytesPerToken)
    self.imageTokenCount = max(0, imageTokenCount)
    self.framingTokenCount = max(0, framingTokenCount)
    self.cache =
      cache
      ?? SharedTokenCountCaches.cache(
        for: [self.bytesPerToken, self.imageTokenCount, self.framingTokenCount])
  }

  /// The estimate for `byteCount` bytes of text.
  public func tokens(forByteCount byteCount: Int) -> Int {
    (byteCount + bytesPerToken - 1) / bytesPerToken
  }

  /// The segment's estimate.
  public func tokenCount(of segment: Transcript.Segment) -> Int {
    switch segment {
    case .text(let text): tokens(forByteCount: text.content.utf8.count)
    case .structure(let structure): tokens(forByteCount: structure.content.jsonString.utf8.count)
    case .attachment(let attachment):
      imageTokenCount + tokens(forByteCount: attachment.label?.utf8.count ?? 0)
    case .custom(let custom): tokens(forByteCount: Self.jsonByteCount(of: custom))
    }
  }

  /// The entry's estimate, counted afresh (not looked up in the cache).
  public func tokenCount(of entry: Transcript.Entry) -> Int {
    switch entry {
    case .instructions(let instructions):
      return framingTokenCount + segmentsTokenCount(instructions.segments)
        + instructions.toolDefinitions.reduce(0) { $0 + tokenCount(of: $1) }
    case .toolCalls(let calls):
      return framingTokenCount
        + calls.calls.reduce(0) { total, call in
          total + framingTokenCount
            + tokens(forByteCount: call.toolName.utf8.count + call.arguments.jsonString.utf8.count)
        }
    case .toolOutput(let output):
      return framingTokenCount + tokens(forByteCount: output.toolName.utf8.count)
        + segmentsTokenCount(output.segments)
    case .prompt, .response, .reasoning:
      return framingTokenCount + segmentsTokenCount(entry.segments)
    }
  }

  /// The definition's estimate: its name, description and JSON Schema.
  public func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int {
    framingTokenCount
      + tokens(
        forByteCount: toolDefinition.name.utf8.count + toolDefinition.description.utf8.count
          + SharedTokenCountCaches.schemaByteCount(of: toolDefinition.parameters))
  }

  /// The request's estimate: every entry, the offered tools that the
  /// instructions entry does not already list, and the schema.
  public func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
    var total = entryCounts(request.transcript.entries).reduce(0, +)
    var listed: Set<String> = []
    if case .instructions(let instructions) = request.transcript.first {
      listed = Set(instructions.toolDefinitions.map(\.name))
    }
    for definition in request.enabledToolDefinitions where !listed.contains(definition.name) {
      total += tokenCount(of: definition)
    }
    if let schema = request.schema {
      total += tokens(forByteCount: SharedTokenCountCaches.schemaByteCount(of: schema))
    }
    return total
  }

  /// The entries' estimates, in order, reusing cached counts.
  public func tokenCounts(of entries: [Transcript.Entry]) -> [Int] {
    entryCounts(entries)
  }

  private func entryCounts(_ entries: [Transcript.Entry]) -> [Int] {
    // Only entries whose estimate means writing JSON go through the cache: for
    // plain text, adding up UTF-8 lengths costs less than a lookup.
    var cachedIDs: [String] = []
    var cachedPositions: [Int] = []
    var counts: [Int] = []
    counts.reserveCapacity(entries.count)
    for (index, entry) in entries.enumerated() {
      if Self.isWorthCaching(entry) {
        cachedIDs.append(entry.id)
        cachedPositions.append(index)
        counts.append(0)
      } else {
        counts.append(tokenCount(of: entry))
      }
    }
    guard !cachedIDs.isEmpty else { return counts }
    let cached = cache.counts(for: cachedIDs)
    var fresh: [(id: String, count: Int)] = []
    for (slot, index) in cachedPositions.enumerated() {
      if let count = cached[slot] {
        counts[index] = count
      } else {
        let count = tokenCount(of: entries[index])
        counts[index] = count
        fresh.append((cachedIDs[slot], count))
      }
    }
    cache.store(fresh)
    return counts
  }

  /// Whether counting the entry costs more than looking it up: tool calls and
  /// entries with structured or custom segments (never instructions).
  static func isWorthCaching(_ entry: Transcript.Entry) -> Bool {
    switch entry {
    case .instructions: return false
    case .toolCalls: return true
    case .prompt, .response, .reasoning, .toolOutput:
      return entry.segments.contains { segment in
        switch segment {
        case .text, .attachment: false
        case .structure, .custom: true
        }
      }
    }
  }

  private func segmentsTokenCount(_ segments: [Transcript.Segment]) -> Int {
    segments.reduce(0) { $0 + tokenCount(of: $1) }
  }

  private static func jsonByteCount(of segment: any CustomSegment) -> Int {
    (try? JSONEncoder().encode(segment).count) ?? segment.id.utf8.count
  }
}

/// The caches shared by counters with equal settings, and the byte lengths of
/// schemas already encoded.
enum SharedTokenCountCaches {
  private static let caches = Mutex<[[Int]: TokenCountCache]>([:])
  private static let schemaLengths = Mutex<[GenerationSchema: Int]>([:])

  static func cache(for settings: [Int]) -> TokenCountCache {
    caches.withLock { caches in
      if let cache = caches[settings] { return cache }
      let cache = TokenCountCache()
      caches[settings] = cache
      return cache
    }
  }

  static func schemaByteCount(of schema: GenerationSchema) -> Int {
    if let known = schemaLengths.withLock({ $0[schema] }) { return known }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let length = (try? encoder.encode(schema).count) ?? 0
    schemaLengths.withLock { lengths in
      if lengths.count >= 1_024 { lengths.removeAll() }
      lengths[schema] = length
    }
    return length
  }
}
