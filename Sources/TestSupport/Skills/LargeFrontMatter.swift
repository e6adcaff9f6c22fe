/// `SKILL.md` texts whose front matter fills the loader's 1 MiB file limit:
/// the worst cases for the YAML reader, for tests and benchmarks.
///
/// ```swift
/// let text = LargeFrontMatter.flowSequence(name: "huge", items: 100_000)
/// ```
public enum LargeFrontMatter {
  /// The loader's default limit on `SKILL.md`, in bytes.
  public static let fileLimit = 1 << 20

  /// A skill whose front matter has an extra key `tags` holding a flow
  /// sequence (`[t0000000, t0000001, ...]`) of `items` plain scalars, each
  /// padded so that the file comes close to `fileLimit` without passing it.
  public static func flowSequence(name: String, items: Int = 100_000) -> String {
    let head = "---\nname: \(name)\ndescription: A skill with a very large front matter.\ntags: ["
    let tail = "]\n---\n# Body\n\nText.\n"
    let room = fileLimit - head.utf8.count - tail.utf8.count
    // Each item is "t" + digits, then ", " between items.
    let width = max(String(items).count, room / max(1, items) - 3)
    var text = head
    text.reserveCapacity(fileLimit)
    for index in 0..<items {
      if index > 0 { text += ", " }
      text += "t" + padded(index, width: width)
    }
    return text + tail
  }

  /// A skill whose `metadata` is a block mapping (`  k0000000: v\n` per line)
  /// with as many entries as fit in `fileLimit`; returns the text and the count.
  public static func blockMapping(name: String) -> (text: String, entries: Int) {
    let head = "---\nname: \(name)\ndescription: A skill with a very large front matter.\nmetadata:\n"
    let tail = "---\n# Body\n\nText.\n"
    let width = 7
    let lineLength = "  k".utf8.count + width + ": v\n".utf8.count
    let entries = (fileLimit - head.utf8.count - tail.utf8.count) / lineLength
    var text = head
    text.reserveCapacity(fileLimit)
    for index in 0..<entries {
      text += "  k" + padded(index, width: width) + ": v\n"
    }
    return (text + tail, entries)
  }

  private static func padded(_ value: Int, width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
