extension ChatCompletionChunk {
  /// Why a choice stopped generating, as the server's `finish_reason` names it.
  ///
  /// Known values have static members; other values decode as they are.
  public struct FinishReason: RawRepresentable, Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The server's text for the reason.
    public var rawValue: String

    /// Creates a reason from the server's text.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// The model finished its answer or reached a stop sequence.
    public static let stop = Self(rawValue: "stop")

    /// The answer hit the token limit and is cut off.
    public static let length = Self(rawValue: "length")

    /// The model called one or more tools.
    public static let toolCalls = Self(rawValue: "tool_calls")

    /// The server's content filter stopped the answer.
    public static let contentFilter = Self(rawValue: "content_filter")

    /// The legacy single function call.
    public static let functionCall = Self(rawValue: "function_call")

    /// Decodes the reason from a JSON string.
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// The server's text for the reason.
    public var description: String { rawValue }
  }
}
