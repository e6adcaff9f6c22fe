/// A file in a skill's folder other than `SKILL.md`: a reference, a script,
/// an asset. Listed when the skill loads; never read until asked for.
///
/// ```swift
/// for resource in skill.resources where resource.isText {
///   print(resource.path, resource.size)   // references/checklist.md 2345
/// }
/// ```
public struct SkillResource: Sendable, Hashable, Codable {
  /// What a resource holds, as far as can be told without reading it all.
  public enum Content: String, Sendable, Hashable, Codable {
    /// UTF-8 text: the read tool hands it to the model.
    case text
    /// Anything else (images, archives, PDFs): listed, never read.
    case binary
  }

  /// The path relative to the skill folder, with `/` between components: `references/checklist.md`.
  public var path: String
  /// The size in bytes when the skill was loaded.
  public var size: Int
  /// Text or binary.
  public var content: Content

  /// Creates a resource entry.
  public init(path: String, size: Int, content: Content) {
    self.path = path
    self.size = size
    self.content = content
  }

  /// Whether the resource is text.
  public var isText: Bool { content == .text }

  /// Whether the resource sits in the skill's `scripts/` folder or has a script's
  /// extension; scripts are listed and readable as text, never run.
  public var isScript: Bool {
    path.hasPrefix("scripts/")
      || ResourceContentClassifier.scriptExtensions.contains(Self.fileExtension(path))
  }

  /// The lowercased extension of the last component of `path`, or "" when it has none.
  static func fileExtension(_ path: String) -> String {
    let name = path.split(separator: "/").last ?? Substring(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }
}
