/// Finds skill folders (folders holding `SKILL.md`) under a root, within the
/// loader's bounds, in a deterministic order.
///
/// Hidden folders (names starting with `.`) are skipped, the inside of a skill
/// folder is not searched for more skills, and a symbolic link to a folder is
/// followed only when it stays inside the root.
struct SkillDiscovery {
  let limits: SkillLoaderLimits
  let mode: SkillValidationMode
  /// Folders visited so far, across every root of one library.
  private(set) var visitedFolders = 0
  private var visitedCanonical: Set<String> = []
  private var reportedFolderLimit = false

  init(limits: SkillLoaderLimits, mode: SkillValidationMode) {
    self.limits = limits
    self.mode = mode
  }

  /// The skill folders under `root` (the root itself when it is one), as paths built on `root`.
  mutating func skillFolders(under root: String) -> (folders: [String], diagnostics: [SkillDiagnostic]) {
    var diagnostics = DiagnosticCollector(path: root, mode: mode)
    guard FileSystem.followedKind(of: root) == .directory, let canonicalRoot = FileSystem.realPath(root)
    else {
      diagnostics.error(FileSystem.kind(of: root) == nil ? "no such folder" : "not a folder")
      return ([], diagnostics.diagnostics)
    }
    var folders: [String] = []
    var tooDeep: [String] = []
    search(
      root, depth: 0, canonicalRoot: canonicalRoot, folders: &folders, tooDeep: &tooDeep,
      diagnostics: &diagnostics)
    if let first = tooDeep.first {
      diagnostics.warning(
        "\(tooDeep.count) folder(s) are more than \(limits.maximumDepth) levels below the root and were "
          + "not searched, starting with \(first)")
    }
    return (folders, diagnostics.diagnostics)
  }

  private mutating func search(
    _ path: String, depth: Int, canonicalRoot: String, folders: inout [String], tooDeep: inout [String],
    diagnostics: inout DiagnosticCollector
  ) {
    guard let canonical = FileSystem.realPath(path), visitedCanonical.insert(canonical).inserted else {
      return
    }
    guard visitedFolders < limits.maximumFolders else {
      if !reportedFolderLimit {
        reportedFolderLimit = true
        diagnostics.error(
          "stopped after visiting \(CountFormatting.grouped(limits.maximumFolders)) folders; "
            + "point the library at a smaller root")
      }
      return
    }
    visitedFolders += 1
    if FileSystem.kind(of: path + "/SKILL.md") != nil {
      folders.append(path)
      return
    }
    guard let names = FileSystem.contentsOfDirectory(path) else { return }
    for name in names where !name.hasPrefix(".") {
      let child = path.hasSuffix("/") ? path + name : path + "/" + name
      switch FileSystem.kind(of: child) {
      case .directory:
        break
      case .symbolicLink:
        guard FileSystem.followedKind(of: child) == .directory else { continue }
        guard let target = FileSystem.realPath(child), FileSystem.isInside(target, folder: canonicalRoot)
        else {
          diagnostics.questionable(
            "\(child) is a symbolic link that leaves the root; it is not followed")
          continue
        }
      default:
        continue
      }
      guard depth + 1 <= limits.maximumDepth else {
        tooDeep.append(child)
        continue
      }
      search(
        child, depth: depth + 1, canonicalRoot: canonicalRoot, folders: &folders, tooDeep: &tooDeep,
        diagnostics: &diagnostics)
    }
  }
}
