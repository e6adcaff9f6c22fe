extension GenerationUsage: Codable {
  private enum CodingKeys: String, CodingKey {
    case input, output
  }

  /// The keys of the flat form that records written before 0.2 carry.
  private enum FlatCodingKeys: String, CodingKey {
    case inputTokenCount, cachedInputTokenCount, outputTokenCount, reasoningTokenCount
  }

  /// Decodes usage in its nested form (`cachedTokenCount` absent when the
  /// server did not report it) (`{"input": {...}, "output": {...}}`) or
  /// in the flat form that records written before 0.2 carry
  /// (`inputTokenCount`, `cachedInputTokenCount`, `outputTokenCount`,
  /// `reasoningTokenCount`), so stored records stay readable.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.input) || container.contains(.output) {
      self.init(
        input: try container.decodeIfPresent(Input.self, forKey: .input) ?? .zero,
        output: try container.decodeIfPresent(Output.self, forKey: .output) ?? .zero)
      return
    }
    let flat = try decoder.container(keyedBy: FlatCodingKeys.self)
    // The flat form wrote 0 both for "none cached" and "the server did not say": 0 reads as unknown.
    let cached = try flat.decodeCountIfPresent(forKey: .cachedInputTokenCount) ?? 0
    self.init(
      input: Input(
        totalTokenCount: try flat.decodeCountIfPresent(forKey: .inputTokenCount) ?? 0,
        reportedCachedTokenCount: cached > 0 ? cached : nil),
      output: Output(
        totalTokenCount: try flat.decodeCountIfPresent(forKey: .outputTokenCount) ?? 0,
        reasoningTokenCount: try flat.decodeCountIfPresent(forKey: .reasoningTokenCount) ?? 0))
  }

  /// Encodes the nested form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(input, forKey: .input)
    try container.encode(output, forKey: .output)
  }
}

extension GenerationUsage.Output: Codable {
  private enum CodingKeys: String, CodingKey {
    case totalTokenCount, reasoningTokenCount
  }

  /// Decodes `{"totalTokenCount": n, "reasoningTokenCount": m}`, each a
  /// whole number from 0 to 2^53 (``CountRange``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      totalTokenCount: try container.decodeCount(forKey: .totalTokenCount),
      reasoningTokenCount: try container.decodeCount(forKey: .reasoningTokenCount))
  }

  /// Encodes both counts.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(totalTokenCount, forKey: .totalTokenCount)
    try container.encode(reasoningTokenCount, forKey: .reasoningTokenCount)
  }
}

extension GenerationUsage.Input: Codable {
  private enum CodingKeys: String, CodingKey {
    case totalTokenCount, cachedTokenCount, cachedTokenSource
  }

  /// Decodes `{"totalTokenCount": n, "cachedTokenCount": m, "cachedTokenSource": "…"}`;
  /// a missing `cachedTokenCount` means the server did not report it (a
  /// source without a count is ignored). Each count must be a whole number
  /// from 0 to 2^53 (``CountRange``); anything else is a `DecodingError` at its key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      totalTokenCount: try container.decodeCount(forKey: .totalTokenCount),
      reportedCachedTokenCount: try container.decodeCountIfPresent(forKey: .cachedTokenCount),
      cachedTokenSource: try container.decodeIfPresent(CachedTokenSource.self, forKey: .cachedTokenSource))
  }

  /// Encodes `totalTokenCount`, and `cachedTokenCount` with its source when the server reported it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(totalTokenCount, forKey: .totalTokenCount)
    try container.encodeIfPresent(reportedCachedTokenCount, forKey: .cachedTokenCount)
    try container.encodeIfPresent(cachedTokenSource, forKey: .cachedTokenSource)
  }
}
