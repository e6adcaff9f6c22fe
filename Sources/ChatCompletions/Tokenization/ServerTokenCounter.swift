import ModelSession

/// Exact token counts from the server's tokenizer (llama.cpp `/tokenize`,
/// llama-cpp-python `/extras/tokenize`), for the history modifiers.
///
/// When the server has no tokenize endpoint, every count comes from the
/// `fallback` estimate instead. Entry counts are cached by entry id, except
/// for instructions entries: a session keeps their id while their content
/// changes (an instructions skill switched on or off, dynamic instructions),
/// so they are counted afresh every time.
///
/// ```swift
/// let counter = ServerTokenCounter(model: model)
/// let profile = Profile { Instructions("…") }
///   .summarizeHistory(
///     threshold: .tokens(6_000), model: model, tokenCounter: counter)
/// ```
///
/// Counts are the tokens of each entry's text (segments, tool names and
/// argument JSON) plus the fallback's framing per entry and per call; images
/// cost the fallback's image count. The chat template's own tokens are
/// approximated by that framing.
public struct ServerTokenCounter: TokenCounter, TextTokenizer {
  /// The server's tokenizer.
  public let tokenizer: ServerTokenizer
  /// The estimate used when the server has no tokenize endpoint, and for framing and images.
  public let fallback: EstimatingTokenCounter
  /// The cache of entry counts, by entry id.
  public let cache: TokenCountCache

  /// Creates a counter that asks `tokenizer`.
  public init(
    tokenizer: ServerTokenizer, fallback: EstimatingTokenCounter = EstimatingTokenCounter(),
    cache: TokenCountCache = TokenCountCache()
  ) {
    self.tokenizer = tokenizer
    self.fallback = fallback
    self.cache = cache
  }

  /// Creates a counter for a model's server, with a client of its own.
  public init(
    model: ChatCompletionsLanguageModel, fallback: EstimatingTokenCounter = EstimatingTokenCounter()
  ) {
    let client = ChatCompletionsClient(endpoint: model.endpoint, timeouts: model.timeouts)
    self.init(tokenizer: ServerTokenizer(client: client, model: model.name), fallback: fallback)
  }

  /// The server's tokens of `text`, or `nil` when it has no tokenize endpoint.
  public func tokens(of text: String) async throws -> [Int]? {
    guard !text.isEmpty else { return [] }
    do {
      return try await tokenizer.tokenize(text)?.tokens
    } catch {
      throw ErrorBoundary.publicError(for: error, mapper: tokenizer.mapper)
    }
  }

  /// The tokens of `text`, or the estimate when the server cannot tokenize.
  public func tokenCount(of text: String) async throws -> Int {
    guard !text.isEmpty else { return 0 }
    do {
      if let tokenization = try await tokenizer.tokenize(text) {
        return tokenization.tokens.count
      }
      return fallback.tokens(forByteCount: text.utf8.count)
    } catch {
      throw ErrorBoundary.publicError(for: error, mapper: tokenizer.mapper)
    }
  }

  /// The segment's count.
  public func tokenCount(of segment: Transcript.Segment) async throws -> Int {
    switch segment {
    case .text(let text): try await tokenCount(of: text.content)
    case .structure(let structure): try await tokenCount(of: structure.content.jsonString)
    case .attachment, .custom: fallback.tokenCount(of: segment)
    }
  }

  /// The entry's count, from the cache when it has the entry's id (never for instructions).
  public func tokenCount(of entry: Transcript.Entry) async throws -> Int {
    guard Self.isCacheable(entry) else { return try await countAfresh(entry) }
    if let cached = cache.counts(for: [entry.id]).first ?? nil {
      return cached
    }
    let count = try await countAfresh(entry)
    cache.store([(id: entry.id, count: count)])
    return count
  }

  /// The definition's count: its name, description and JSON Schema.
  public func tokenCount(of toolDefinition: Transcript.ToolDefinition) async throws -> Int {
    let text = [
      toolDefinition.name, toolDefinition.description, toolDefinition.parameters.jsonSchema.jsonString,
    ]
    .joined(separator: "\n")
    return fallback.framingTokenCount + (try await tokenCount(of: text))
  }

  /// The request's count: every entry, the offered tools the instructions do
  /// not already list, and the schema.
  public func tokenCount(of request: LanguageModelExecutorGenerationRequest) async throws -> Int {
    var total = try await tokenCounts(of: request.transcript.entries).reduce(0, +)
    var listed: Set<String> = []
    if case .instructions(let instructions) = request.transcript.first {
      listed = Set(instructions.toolDefinitions.map(\.name))
    }
    for definition in request.enabledToolDefinitions where !listed.contains(definition.name) {
      total += try await tokenCount(of: definition)
    }
    if let schema = request.schema {
      total += try await tokenCount(of: schema.jsonSchema.jsonString)
    }
    return total
  }

  /// The entries' counts, in order, reusing cached counts (instructions are always counted afresh).
  public func tokenCounts(of entries: [Transcript.Entry]) async throws -> [Int] {
    let cacheable = entries.filter(Self.isCacheable)
    var known = Dictionary(
      zip(cacheable.map(\.id), cache.counts(for: cacheable.map(\.id))).compactMap { id, count in
        count.map { (id, $0) }
      },
      uniquingKeysWith: { first, _ in first })
    var counts: [Int] = []
    var fresh: [(id: String, count: Int)] = []
    counts.reserveCapacity(entries.count)
    for entry in entries {
      if Self.isCacheable(entry), let count = known[entry.id] {
        counts.append(count)
      } else {
        let count = try await countAfresh(entry)
        counts.append(count)
        if Self.isCacheable(entry) {
          fresh.append((id: entry.id, count: count))
          known[entry.id] = count
        }
      }
    }
    cache.store(fresh)
    return counts
  }

  /// Whether an entry's count may be remembered by its id: every entry but
  /// instructions, whose content changes under the same id.
  private static func isCacheable(_ entry: Transcript.Entry) -> Bool {
    if case .instructions = entry { false } else { true }
  }

  private func countAfresh(_ entry: Transcript.Entry) async throws -> Int {
    var total = fallback.framingTokenCount
    switch entry {
    case .instructions(let instructions):
      total += try await segmentsCount(instructions.segments)
      for definition in instructions.toolDefinitions {
        total += try await tokenCount(of: definition)
      }
    case .toolCalls(let calls):
      for call in calls.calls {
        total += fallback.framingTokenCount
        total += try await tokenCount(of: call.toolName + "\n" + call.arguments.jsonString)
      }
    case .toolOutput(let output):
      total += try await tokenCount(of: output.toolName)
      total += try await segmentsCount(output.segments)
    case .prompt, .response, .reasoning:
      total += try await segmentsCount(entry.segments)
    }
    return total
  }

  /// The segments' count: their text tokenized in one request, plus the
  /// estimate of each image and custom segment.
  private func segmentsCount(_ segments: [Transcript.Segment]) async throws -> Int {
    var texts: [String] = []
    var other = 0
    for segment in segments {
      switch segment {
      case .text(let text): texts.append(text.content)
      case .structure(let structure): texts.append(structure.content.jsonString)
      case .attachment, .custom: other += fallback.tokenCount(of: segment)
      }
    }
    return other + (try await tokenCount(of: texts.joined(separator: "\n")))
  }
}
