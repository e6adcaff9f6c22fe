import ModelSession

extension LoadedSkill {
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
    if path.hasPrefix("/") || path.hasPrefix("~") { throw .outsideSkillFolder(path, skill: name) }
    let shownPath = RelativePath.normalized(path) ?? path
    // Both within 0 … 2^53 (`CountRange`), so that `from + …` and `window + 4` cannot overflow.
    let window = min(max(1, limit), CountRange.maximum)
    // Three bytes more on each side than asked, to find the characters' edges.
    let from = min(max(0, offset), CountRange.maximum)
    let chunk: [UInt8]
    let fileSize: Int
    do {
      (chunk, fileSize) = try ResourceWindowReader(canonicalFolder: canonicalFolder)
        .read(path, offset: from, count: window + 4)
    } catch {
      throw SkillResourceError(error, skill: name)
    }
    let reachesEnd = from + chunk.count >= fileSize
    let start = Self.characterStart(atOrAfter: 0, in: chunk)
    var end =
      reachesEnd && start + window >= chunk.count
      ? chunk.count : Self.characterStart(atOrBefore: min(chunk.count, start + window), in: chunk)
    if end <= start && start < chunk.count {
      // A limit smaller than one character still returns that character.
      end = Self.characterStart(atOrAfter: start + 1, in: chunk)
    }
    let text = chunk[start..<end]
    guard ResourceContentClassifier.isText(text, isPrefix: false) else {
      throw .binary(shownPath, skill: name, size: fileSize)
    }
    return SkillResourceExcerpt(
      path: shownPath, text: String(decoding: text, as: UTF8.self), offset: min(from, fileSize) + start,
      totalSize: fileSize)
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
