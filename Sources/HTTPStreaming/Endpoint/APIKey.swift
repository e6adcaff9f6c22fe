/// A secret credential that never shows itself.
///
/// Its `description`, `debugDescription` and mirror all read `<redacted>`,
/// so that printing, logging, `dump` or string interpolation of any value
/// that contains it cannot leak it. Only the request builder reads
/// ``revealed``, to write the `Authorization` header.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The secret itself; read it only to put it on the wire.
  public let revealed: String

  /// Wraps a secret.
  public init(_ secret: String) {
    self.revealed = secret
  }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }

  /// Always `<redacted>`.
  public var debugDescription: String { "<redacted>" }

  /// A mirror with no children, shown as `<redacted>`.
  public var customMirror: Mirror {
    Mirror(self, children: [], displayStyle: .struct)
  }
}
