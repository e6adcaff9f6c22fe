import Foundation

extension LoadedSkill {
  /// The largest resource the read tool opens, in bytes: 16 MiB.
  public static let maximumReadableResourceSize = 16 << 20

  /// Reads a window of a text file in the skill folder: at most `limit` bytes
  /// from byte `offset`, cut so that no UTF-8 character is split.
  ///
  /// ```swift
  /// var excerpt = try skill.readTextResource("references/checklist.md")
  /// while excerpt.remainingBytes > 0 {
  ///   excerpt = try skill.readTextResource("references/checklist.md", offset: excerpt.endOffset)
  /// }
  /// ```
  ///
  /// The same checks as ``contentsOfResource(_:limit:)`` apply (nothing outside
  /// the folder, no devices or FIFOs); a window that is not UTF-8 text, or
  /// holds a NUL byte, throws ``SkillResourceError/binary(_:skill:size:)``.
  public func readTextResource(
    _ path: String, offset: Int = 0, limit: Int = SkillResourceExcerpt.defaultLimit
  ) throws(SkillResourceError) -> SkillResourceExcerpt {
    let bytes = [UInt8](try contentsOfResource(path, limit: Self.maximumReadableResourceSize))
    let shownPath = RelativePath.normalized(path) ?? path
    let start = Self.characterStart(atOrAfter: min(max(0, offset), bytes.count), in: bytes)
    var end = Self.characterStart(atOrBefore: min(bytes.count, start + max(1, limit)), in: bytes)
    if end <= start && start < bytes.count {
      // A limit smaller than one character still returns that character.
      end = Self.characterStart(atOrAfter: start + 1, in: bytes)
    }
    let window = bytes[start..<end]
    guard ResourceContentClassifier.isText(window, isPrefix: false) else {
      throw .binary(shownPath, skill: name, size: bytes.count)
    }
    return SkillResourceExcerpt(
      path: shownPath, text: String(decoding: window, as: UTF8.self), offset: start, totalSize: bytes.count)
  }

  /// The first index at or after `index` that does not hold a UTF-8 continuation
  /// byte (at most three steps on; further means the bytes are not UTF-8 anyway).
  private static func characterStart(atOrAfter index: Int, in bytes: [UInt8]) -> Int {
    var candidate = index
    while candidate < bytes.count && isContinuation(bytes[candidate]) && candidate - index < 3 {
      candidate += 1
    }
    return candidate < bytes.count && isContinuation(bytes[candidate]) ? index : candidate
  }

  /// The last index at or before `index` that does not hold a UTF-8 continuation
  /// byte (at most three steps back; further means the bytes are not UTF-8 anyway).
  private static func characterStart(atOrBefore index: Int, in bytes: [UInt8]) -> Int {
    var candidate = index
    while candidate < bytes.count && candidate > 0 && isContinuation(bytes[candidate])
      && index - candidate < 3
    {
      candidate -= 1
    }
    return candidate < bytes.count && isContinuation(bytes[candidate]) ? index : candidate
  }

  private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
