import Foundation

/// A skill read from a folder on disk: its front matter, its body as written,
/// the body's outline, and the files it carries.
///
/// Resources are only listed; read one with ``contentsOfResource(_:limit:)``, which
/// refuses anything outside the skill folder.
///
/// ```swift
/// let skill = try SkillLoader().load(folder: URL(fileURLWithPath: "SkillsLibrary/writing-commit-messages"))
/// print(skill.name, skill.sections.map(\.title))
/// let template = try skill.contentsOfResource("assets/template.txt")
/// ```
public struct LoadedSkill: Sendable, Hashable {
  /// The validated front matter.
  public let frontMatter: SkillFrontMatter
  /// The markdown after the front matter, as written (line endings normalised to LF).
  public let body: String
  /// The 1-based line of `SKILL.md` on which the body starts.
  public let bodyFirstLine: Int
  /// The body's top-level sections, each with its nested sections.
  public let sections: [SkillSection]
  /// The body's relative links to files that exist inside the skill folder, in document order.
  public let links: [SkillLink]
  /// Every file in the skill folder except `SKILL.md`, sorted by path, with its
  /// size and whether it is text (at most ``SkillLoaderLimits/maximumResources``
  /// files, down to ``SkillLoaderLimits/maximumDepth`` levels below the folder;
  /// a diagnostic names each folder left out for its depth).
  /// Only files with an unusual extension are read at load time (their first
  /// bytes, to tell text from binary).
  public let resources: [SkillResource]
  /// The skill folder.
  public let folder: URL
  /// Warnings found while loading (a skill with errors is not loaded).
  public let diagnostics: [SkillDiagnostic]
  /// The folder's canonical path, against which resource paths are checked.
  let canonicalFolder: String

  init(
    frontMatter: SkillFrontMatter, body: String, bodyFirstLine: Int, sections: [SkillSection],
    links: [SkillLink], resources: [SkillResource], folder: URL, canonicalFolder: String,
    diagnostics: [SkillDiagnostic]
  ) {
    self.frontMatter = frontMatter
    self.body = body
    self.bodyFirstLine = bodyFirstLine
    self.sections = sections
    self.links = links
    self.resources = resources
    self.folder = folder
    self.canonicalFolder = canonicalFolder
    self.diagnostics = diagnostics
  }

  /// The skill's name.
  public var name: String { frontMatter.name }
  /// The skill's description.
  public var description: String { frontMatter.description }
  /// How the skill reaches the model when activated.
  public var activation: SkillActivationStyle { frontMatter.activation }
  /// Whether an instructions skill may be switched off again.
  public var allowsDeactivation: Bool { frontMatter.allowsDeactivation }
  /// Whether the model may activate the skill itself (`false` for
  /// `disable-model-invocation: true`): see ``SkillFrontMatter/allowsModelInvocation``.
  public var allowsModelInvocation: Bool { frontMatter.allowsModelInvocation }
  /// The `SKILL.md` file.
  public var file: URL { folder.appendingPathComponent("SKILL.md") }

  /// The resource listed at `path` (normalised: `./references//a.md` finds `references/a.md`).
  public func resource(at path: String) -> SkillResource? {
    guard let normalized = RelativePath.normalized(path) else { return nil }
    return resources.first { $0.path == normalized }
  }

  /// The location of a file inside the skill folder.
  ///
  /// Refuses absolute paths, paths that climb out with `..`, and paths that
  /// leave the folder through a symbolic link.
  public func resolveResource(_ path: String) throws(SkillResourceError) -> URL {
    let canonical = try canonicalResourcePath(path)
    return URL(fileURLWithPath: canonical)
  }

  /// The bytes of a file inside the skill folder, read now; see ``resolveResource(_:)``.
  public func contentsOfResource(_ path: String, limit: Int = 16 << 20) throws(SkillResourceError) -> Data {
    if path.hasPrefix("/") || path.hasPrefix("~") { throw .outsideSkillFolder(path, skill: name) }
    let reader = SkillFolderReader(folder: canonicalFolder, symbolicLinks: .followInsideFolder)
    do {
      return Data(try reader.read(path, limit: limit))
    } catch {
      throw SkillResourceError(error, skill: name)
    }
  }

  private func canonicalResourcePath(_ path: String) throws(SkillResourceError) -> String {
    if path.hasPrefix("/") || path.hasPrefix("~") { throw .outsideSkillFolder(path, skill: name) }
    guard let relative = RelativePath.normalized(path) else {
      if path.isEmpty || path.contains("\0") { throw .invalidPath(path, skill: name) }
      throw .outsideSkillFolder(path, skill: name)
    }
    let joined = canonicalFolder + "/" + relative
    guard FileSystem.kind(of: joined) != nil else { throw .notFound(path, skill: name) }
    guard let canonical = FileSystem.realPath(joined) else { throw .notFound(path, skill: name) }
    guard FileSystem.isInside(canonical, folder: canonicalFolder), canonical != canonicalFolder else {
      throw .outsideSkillFolder(path, skill: name)
    }
    guard case .file = FileSystem.followedKind(of: canonical) else { throw .notAFile(path, skill: name) }
    return canonical
  }
}
