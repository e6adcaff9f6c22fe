// Placeholder replaced by the JSON work.
extension GeneratedContent {
  /// Parses JSON.
  public init(json: String) throws {
    throw GeneratedContentError(.decodingFailed("not implemented"))
  }
  /// The JSON text.
  public var jsonString: String { "" }
}
extension GeneratedContent {
  /// Parses partial JSON.
  public init(partialJSON: String) throws {
    throw GeneratedContentError(.decodingFailed("not implemented"))
  }
}
extension GeneratedContent: Codable {
  /// Placeholder.
  public init(from decoder: any Decoder) throws {
    self.init(kind: .null)
  }
  /// Placeholder.
  public func encode(to encoder: any Encoder) throws {}
}
