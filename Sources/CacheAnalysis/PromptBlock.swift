/// One part of a rendered prompt, in the order a server reads it: a tool
/// definition, the context settings, the response schema, the instructions,
/// or one transcript entry.
///
/// Two blocks are the same for a prompt cache when their ``text`` is the same:
/// the text is a canonical rendering of what the server is sent for that part
/// (entry and segment ids, which a server never sees, are left out; tool-call
/// ids, which it does see, are kept).
public struct PromptBlock: Sendable, Hashable, Codable {
  /// Which part of the request a block renders.
  public enum Location: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The definition of the tool with this name, in the request's tool list.
    case tool(name: String)
    /// The context settings written into the prompt (the reasoning level).
    case settings
    /// The response schema, when it is written into the prompt.
    case responseSchema
    /// The instructions entry (its text; its tools are the `tool` blocks).
    case instructions
    /// The transcript entry at `index` of the sent transcript, of kind `kind`
    /// (`prompt`, `toolCalls`, …, as `Transcript.Entry.kindName` names it).
    case entry(index: Int, kind: String)

    /// `tools`, `settings`, `responseSchema`, `instructions`, or `entry 4 (prompt)`.
    public var description: String {
      switch self {
      case .tool(let name): "tools (\(name))"
      case .settings: "settings"
      case .responseSchema: "responseSchema"
      case .instructions: "instructions"
      case .entry(let index, let kind): "entry \(index) (\(kind))"
      }
    }

    /// Whether the block renders part of the tool list.
    public var isTool: Bool {
      if case .tool = self { true } else { false }
    }
  }

  /// Which part of the request the block renders.
  public var location: Location
  /// The canonical text of the part.
  public var text: String
  /// The tokens the part takes, as the model's ``PromptCacheModel/tokenCounter`` counts them.
  public var tokenCount: Int

  /// Creates a block.
  public init(location: Location, text: String, tokenCount: Int) {
    self.location = location
    self.text = text
    self.tokenCount = tokenCount
  }

  /// Whether a server would see the same tokens for both blocks (same text).
  public func rendersSame(as other: PromptBlock) -> Bool {
    tokenCount == other.tokenCount && text == other.text
  }
}
