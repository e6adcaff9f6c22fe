// Placeholder replaced by the JSON work.
extension GeneratedContent {
  /// Parses JSON.
  public init(json: String) throws {
    throw GeneratedContentError(.decodingFailed("not implemented"))
  }
  /// The JSON text.
  public var jsonString: String { "" }
}
