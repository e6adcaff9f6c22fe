/// What a language model can do.
///
/// ```swift
/// LanguageModelCapabilities([.toolCalling, .reasoning])
/// ```
public struct LanguageModelCapabilities: Sendable, Hashable, Codable, ExpressibleByArrayLiteral {
  /// One capability.
  public struct Capability: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The capability's name.
    public var name: String

    /// Creates a capability by name.
    public init(name: String) {
      self.name = name
    }

    /// The model can call tools.
    public static let toolCalling = Capability(name: "toolCalling")
    /// The model enforces a JSON schema on its output.
    public static let guidedGeneration = Capability(name: "guidedGeneration")
    /// The model takes images as input.
    public static let vision = Capability(name: "vision")
    /// The model reasons before answering and reports that reasoning.
    public static let reasoning = Capability(name: "reasoning")

    /// The capability's name.
    public var description: String { name }
  }

  /// The capabilities in the set.
  public var capabilities: Set<Capability>

  /// Creates a set of capabilities.
  public init(_ capabilities: some Sequence<Capability>) {
    self.capabilities = Set(capabilities)
  }

  /// Creates a set of capabilities.
  public init(arrayLiteral elements: Capability...) {
    self.init(elements)
  }

  /// Whether the set holds `capability`.
  public func contains(_ capability: Capability) -> Bool {
    capabilities.contains(capability)
  }
}
