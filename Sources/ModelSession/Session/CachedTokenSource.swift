/// Where a server's count of cached prompt tokens was read: the field of
/// its answer, or the log line, that gave ``GenerationUsage/Input/reportedCachedTokenCount``.
///
/// Servers report the same figure under different names
/// (`usage.prompt_tokens_details.cached_tokens`, DeepSeek's
/// `usage.prompt_cache_hit_tokens`, llama.cpp's `timings.cache_n`, …); the
/// provider that read it names the field, so that a report can say where a
/// number came from. Providers define their own values.
///
/// ```swift
/// if let source = response.usage.input.cachedTokenSource {
///   print("\(response.usage.input.cachedTokenCount) cached, from \(source)")
/// }
/// ```
public struct CachedTokenSource: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The field's path in the server's answer, or a short description of the log line.
  public var rawValue: String

  /// Creates a source from the field's path.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The field's path.
  public var description: String { rawValue }
}
