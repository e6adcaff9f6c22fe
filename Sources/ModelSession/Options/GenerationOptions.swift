/// Options that control one generation: sampling, temperature, length and tool use.
///
/// ```swift
/// let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 200)
/// ```
public struct GenerationOptions: Sendable, Equatable, Hashable, Codable {
  /// How the model picks each token.
  public struct SamplingMode: Sendable, Equatable, Hashable, Codable {
    /// A readable form of the sampling mode, for providers to translate.
    public enum Kind: Sendable, Equatable, Hashable, Codable {
      /// Always the most likely token.
      case greedy
      /// A random pick among the `k` most likely tokens.
      case randomTopK(Int, seed: UInt64?)
      /// A random pick among the most likely tokens whose probabilities add up to `p`.
      case randomProbabilityThreshold(Double, seed: UInt64?)
    }

    /// What the mode is.
    public var kind: Kind

    /// Always the most likely token.
    public static let greedy = SamplingMode(kind: .greedy)

    /// A random pick among the `k` most likely tokens.
    public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(kind: .randomTopK(k, seed: seed))
    }

    /// A random pick among the most likely tokens whose probabilities add up to `threshold`.
    public static func random(probabilityThreshold threshold: Double, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(kind: .randomProbabilityThreshold(threshold, seed: seed))
    }

    init(kind: Kind) {
      self.kind = kind
    }
  }

  /// Whether and how the model may call tools.
  public enum ToolCallingMode: String, Sendable, Equatable, Hashable, Codable {
    /// The model decides.
    case allowed
    /// The model must call a tool.
    case required
    /// The model must not call a tool.
    case disallowed
  }

  /// How the model picks each token; `nil` leaves it to the model.
  public var sampling: SamplingMode?
  /// The sampling temperature; `nil` leaves it to the model.
  public var temperature: Double?
  /// The longest response, in tokens; `nil` leaves it to the model.
  public var maximumResponseTokens: Int?
  /// Whether and how the model may call tools; `nil` means `.allowed`.
  ///
  /// A session asks for `.required` in the first generation of a turn only:
  /// the generations after the tools' outputs are `.allowed`, so that the
  /// model can answer and the turn can end. Skill deliveries and other entries
  /// a profile adds before the first generation do not count as a round.
  public var toolCallingMode: ToolCallingMode?

  /// The sampling mode (the name providers read).
  public var samplingMode: SamplingMode? { sampling }

  /// Creates generation options.
  public init(
    sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
    toolCallingMode: ToolCallingMode? = nil
  ) {
    self.sampling = sampling
    self.temperature = temperature
    self.maximumResponseTokens = maximumResponseTokens
    self.toolCallingMode = toolCallingMode
  }
}
