/// A window of a text resource: what one call of the read tool hands the model.
///
/// Offsets count bytes of the file; a window never splits a UTF-8 character.
/// ``remainingBytes`` says how much follows, and ``endOffset`` is where the next
/// read starts.
public struct SkillResourceExcerpt: Sendable, Hashable {
  /// The most bytes one read returns unless told otherwise: 32 KiB.
  public static let defaultLimit = 32 * 1024

  /// The resource's path relative to the skill folder.
  public var path: String
  /// The text of the window.
  public var text: String
  /// The byte offset in the file of the window's first byte.
  public var offset: Int
  /// The file's size in bytes.
  public var totalSize: Int

  /// Creates an excerpt.
  public init(path: String, text: String, offset: Int, totalSize: Int) {
    self.path = path
    self.text = text
    self.offset = offset
    self.totalSize = totalSize
  }

  /// The byte offset just after the window: where the next read starts.
  public var endOffset: Int { offset + text.utf8.count }
  /// How many bytes of the file follow the window.
  public var remainingBytes: Int { max(0, totalSize - endOffset) }
}
