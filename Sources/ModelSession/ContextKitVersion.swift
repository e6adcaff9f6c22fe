/// The version of ContextKit, as sent in the `User-Agent` header.
public enum ContextKitVersion {
  /// The version text, such as `0.1.0`.
  public static let current = "0.1.0"

  /// The `User-Agent` value this module sends: `ContextKit/<version>`.
  public static var userAgent: String { "ContextKit/\(current)" }
}
