/// Finds skill folders (folders holding `SKILL.md`) under a root, within the
/// loader's bounds, in a deterministic order.
///
/// Hidden folders (names starting with `.`) are skipped (a warning names one
/// that holds a `SKILL.md` itself, which loads when passed as a root), the inside of a skill
/// folder is not searched for more skills, and a symbolic link to a folder is
/// followed only when it stays inside the root.
struct SkillDiscovery {
  let limits: SkillLoaderLimits
  let mode: SkillValidationMode
  /// Folders visited so far under the current root (the limit applies to each root).
  private(set) var visitedFolders = 0
  private var visitedCanonical: Set<String> = []
  private var reportedFolderLimit = false
  /// Hidden folders under the current root that hold a `SKILL.md` (each one a warning).
  private var hiddenSkillFolders = 0

  init(limits: SkillLoaderLimits, mode: SkillValidationMode) {
    self.limits = limits
    self.mode = mode
  }

  /// A skill folder found: its path built on the root, and its canonical path.
  struct Found: Equatable {
    var path: String
    var canonical: String
  }

  /// The skill folders under `root` (the root itself when it is one). The
  /// folder limit counts afresh for each root; a folder already found under an
  /// earlier root (roots that overlap) is not visited again.
  mutating func skillFolders(under root: String) -> (folders: [Found], diagnostics: [SkillDiagnostic]) {
    visitedFolders = 0
    reportedFolderLimit = false
    hiddenSkillFolders = 0
    var diagnostics = DiagnosticCollector(path: root, mode: mode)
    guard FileSystem.followedKind(of: root) == .directory, let canonicalRoot = FileSystem.realPath(root)
    else {
      diagnostics.error(FileSystem.kind(of: root) == nil ? "no such folder" : "not a folder")
      return ([], diagnostics.diagnostics)
    }
    var folders: [Found] = []
    var tooDeep: [String] = []
    search(
      root, canonical: canonicalRoot, depth: 0, canonicalRoot: canonicalRoot, folders: &folders,
      tooDeep: &tooDeep,
      diagnostics: &diagnostics)
    if let first = tooDeep.first {
      diagnostics.warning(
        "\(tooDeep.count) folder(s) are more than \(limits.maximumDepth) "
          + (limits.maximumDepth == 1 ? "level" : "levels")
          + " below the root and were not searched, starting with \(first)")
    }
    if folders.isEmpty && !diagnostics.hasErrors && hiddenSkillFolders == 0 {
      diagnostics.warning("no skills here: no folder under this root holds a SKILL.md")
    }
    return (folders, diagnostics.diagnostics)
  }

  private mutating func search(
    _ path: String, canonical: String, depth: Int, canonicalRoot: String, folders: inout [Found],
    tooDeep: inout [String], diagnostics: inout DiagnosticCollector
  ) {
    guard visitedCanonical.insert(canonical).inserted else { return }
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
    // A lowercase skill.md counts too, so that the loader can say to rename it.
    if FileSystem.kind(of: path + "/SKILL.md") != nil || FileSystem.kind(of: path + "/skill.md") != nil {
      folders.append(Found(path: path, canonical: canonical))
      return
    }
    let listing: FileSystem.Listing
    switch FileSystem.contentsOfDirectory(path) {
    case .success(let value): listing = value
    case .failure(let error):
      diagnostics.questionable(
        "this folder cannot be listed (\(error.reason)); skills in it are not found", at: path)
      return
    }
    diagnostics.reportUndecodable(listing.undecodable, in: path)
    for entry in listing.entries {
      let name = entry.name
      let child = path.hasSuffix("/") ? path + name : path + "/" + name
      guard !name.hasPrefix(".") else {
        reportHiddenSkill(child, depth: depth + 1, into: &diagnostics)
        continue
      }
      let childCanonical: String
      // The listing says which entries are folders; only the others need a look.
      switch entry.isDirectory ? .directory : FileSystem.kind(of: child) {
      case .directory:
        childCanonical = canonical == "/" ? "/" + name : canonical + "/" + name
      case .symbolicLink:
        guard FileSystem.followedKind(of: child) == .directory else { continue }
        guard let target = FileSystem.realPath(child), FileSystem.isInside(target, folder: canonicalRoot)
        else {
          diagnostics.questionable(
            "\(child) is a symbolic link that leaves the root; it is not followed")
          continue
        }
        childCanonical = target
      default:
        continue
      }
      guard depth + 1 <= limits.maximumDepth else {
        tooDeep.append(child)
        continue
      }
      search(
        child, canonical: childCanonical, depth: depth + 1, canonicalRoot: canonicalRoot, folders: &folders,
        tooDeep: &tooDeep,
        diagnostics: &diagnostics)
    }
  }

  /// A warning when the hidden entry `path` is a folder holding a `SKILL.md`
  /// itself (one look for the file: `.git` and the like are not searched).
  private mutating func reportHiddenSkill(
    _ path: String, depth: Int, into diagnostics: inout DiagnosticCollector
  ) {
    guard depth <= limits.maximumDepth,
      FileSystem.kind(of: path + "/SKILL.md") != nil || FileSystem.kind(of: path + "/skill.md") != nil
    else { return }
    hiddenSkillFolders += 1
    diagnostics.warning(
      "this folder holds a SKILL.md, but its name starts with \".\" and hidden folders are not searched "
        + "for skills; to load it, pass the folder itself as a root", at: path)
  }
}
