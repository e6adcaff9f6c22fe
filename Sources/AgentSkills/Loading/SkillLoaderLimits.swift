/// The bounds that keep loading fast and safe on any folder.
public struct SkillLoaderLimits: Sendable, Hashable, Codable {
  /// The largest `SKILL.md` read, in bytes. 1 MiB by default.
  public var maximumFileSize: Int
  /// How many folder levels below each root are searched for skills, and how
  /// many levels below a skill folder its resource files are listed from
  /// (`references/guide.md` is 2 levels down; files directly in the skill
  /// folder are always listed; a diagnostic names each folder whose files are
  /// deeper). 6 by default.
  public var maximumDepth: Int
  /// How many folders discovery visits under each root before it stops there.
  /// 25,000 by default: room for 10,000 skills in one root, in folders of categories.
  public var maximumFolders: Int
  /// How many resource files are listed per skill before the list is cut. 2,000 by default.
  public var maximumResources: Int

  /// Creates limits. A value below its smallest is raised to it: the file
  /// size and the folder count to 1, the depth and the resource count to 0
  /// (a depth of 0 searches only the root itself).
  public init(
    maximumFileSize: Int = 1 << 20, maximumDepth: Int = 6, maximumFolders: Int = 25_000,
    maximumResources: Int = 2000
  ) {
    self.maximumFileSize = max(1, maximumFileSize)
    self.maximumDepth = max(0, maximumDepth)
    self.maximumFolders = max(1, maximumFolders)
    self.maximumResources = max(0, maximumResources)
  }

  /// The default limits.
  public static let standard = SkillLoaderLimits()
}
