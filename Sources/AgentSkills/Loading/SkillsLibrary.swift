import Foundation

/// Every skill found under one or more root folders, sorted by name.
///
/// ```swift
/// let library = try SkillsLibrary(roots: [URL(fileURLWithPath: "SkillsLibrary")])
/// for skill in library.loadedSkills { print(skill.name, "-", skill.description) }
/// for problem in library.diagnostics { print(problem) }  // path:line:col: severity: message
/// ```
///
/// In lenient mode (the default) every good skill is loaded and the bad ones are
/// reported in ``diagnostics``; in strict mode the first error is thrown. Roots
/// are listed in order of precedence, such as a project's skills before the
/// user's: when two skills share a name, the one under the earlier root (or,
/// under one root, the earlier path) wins, and each clash is a warning that names
/// both folders. The discovery limits (``SkillLoaderLimits/maximumDepth`` and
/// ``SkillLoaderLimits/maximumFolders``) apply to each root on its own. Hidden
/// folders (`.git`, `.build`) are not searched, and the inside of a skill folder
/// is not searched for more skills.
public struct SkillsLibrary: Sendable {
  /// What to do with a root that does not exist.
  public enum MissingRoots: Sendable, Hashable {
    /// Each missing root is an error diagnostic: for roots the user named.
    case reported
    /// Missing roots are passed over in silence: for the usual places agents
    /// keep skills (``standardRoots(project:home:app:)``), most of which a
    /// given machine does not have.
    case skipped
  }

  /// The roots searched, in order of precedence.
  public let roots: [URL]
  /// How strictly the skills were checked.
  public let mode: SkillValidationMode
  /// The bounds loading kept to.
  public let limits: SkillLoaderLimits
  /// What a missing root does.
  public let missingRoots: MissingRoots
  /// The loaded skills, sorted by name; names are unique.
  public private(set) var loadedSkills: [LoadedSkill]
  /// Every problem found: skills that failed, warnings, name clashes and bounds reached.
  public private(set) var diagnostics: [SkillDiagnostic]

  /// Searches `roots` for skill folders and loads them.
  ///
  /// - Parameters:
  ///   - roots: the folders to search, earliest first: a name found in two roots is
  ///     loaded from the earlier one, and the clash is a diagnostic.
  ///   - mode: lenient (the default) loads what the Agent Skills client guide loads,
  ///     with warnings; strict refuses what the specification does not allow.
  ///   - limits: the bounds on files, sizes and counts while loading.
  ///   - missingRoots: ``MissingRoots/reported`` (the default) makes a
  ///     root that does not exist an error diagnostic; ``MissingRoots/skipped`` passes over it.
  /// - Throws: In strict mode only, the first error, with every diagnostic found before it.
  public init(
    roots: [URL], mode: SkillValidationMode = .lenient, limits: SkillLoaderLimits = .standard,
    missingRoots: MissingRoots = .reported
  ) throws(SkillLoadingError) {
    self.roots = roots
    self.mode = mode
    self.limits = limits
    self.missingRoots = missingRoots
    (loadedSkills, diagnostics) = try Self.load(roots, mode: mode, limits: limits, missingRoots: missingRoots)
  }

  /// The skills under `roots`, by name, and every diagnostic.
  private static func load(
    _ roots: [URL], mode: SkillValidationMode, limits: SkillLoaderLimits, missingRoots: MissingRoots
  ) throws(SkillLoadingError) -> (skills: [LoadedSkill], diagnostics: [SkillDiagnostic]) {
    let loader = SkillLoader(mode: mode, limits: limits)
    var discovery = SkillDiscovery(limits: limits, mode: mode)
    var diagnostics: [SkillDiagnostic] = []
    var byName: [String: (skill: LoadedSkill, rootIndex: Int)] = [:]
    // Only the diagnostics just added are looked at, so that checking stays linear.
    func add(_ new: [SkillDiagnostic]) throws(SkillLoadingError) {
      diagnostics += new
      if mode == .strict, let error = new.first(where: \.isError) {
        throw SkillLoadingError(error, all: diagnostics)
      }
    }
    for (rootIndex, root) in roots.enumerated() {
      if missingRoots == .skipped && FileSystem.followedKind(of: root.path) == nil { continue }
      let found = discovery.skillFolders(under: root.path)
      try add(found.diagnostics)
      for report in ParallelLoader.inspect(found.folders, with: loader) {
        try add(report.diagnostics)
        guard let skill = report.skill else { continue }
        if let winner = byName[skill.name] {
          let rule =
            winner.rootIndex == rootIndex
            ? "under one root, the first folder in path order wins"
            : "root \(roots[winner.rootIndex].path) comes before \(root.path)"
          diagnostics.append(
            SkillDiagnostic(
              severity: .warning, path: skill.file.path, line: 0, column: 0,
              message: "skill \"\(skill.name)\" is hidden by the skill of the same name in "
                + "\(winner.skill.folder.path) (\(rule)); rename one of them to use both"))
        } else {
          byName[skill.name] = (skill, rootIndex)
        }
      }
    }
    return (byName.values.map(\.skill).sorted { $0.name < $1.name }, diagnostics)
  }

  /// Loads the roots again, as they are on disk now, and says which skills
  /// were added, removed or edited (any change to a skill's `SKILL.md`, its
  /// folder or its list of resources).
  ///
  /// ```swift
  /// let changes = try library.reload()          // between two turns
  /// if !changes.isEmpty { print(changes) }      // added triaging-crash-logs; edited reviewing-sql
  /// ```
  ///
  /// A `Skills` catalog built from ``skills`` at the next generation follows:
  /// its text and its activation tool list the skills now loaded, and the
  /// generation's record notes the change (a prompt-cache miss from the
  /// instructions on). Nothing changes for the model when nothing changed.
  ///
  /// - Throws: In strict mode only, the first error; the library is then left as it was.
  @discardableResult
  public mutating func reload() throws(SkillLoadingError) -> SkillsLibraryChanges {
    let (skills, newDiagnostics) = try Self.load(
      roots, mode: mode, limits: limits, missingRoots: missingRoots)
    let changes = SkillsLibraryChanges(from: loadedSkills, to: skills)
    loadedSkills = skills
    diagnostics = newDiagnostics
    return changes
  }

  /// Searches one root; see ``init(roots:mode:limits:missingRoots:)``.
  public init(
    root: URL, mode: SkillValidationMode = .lenient, limits: SkillLoaderLimits = .standard
  ) throws(SkillLoadingError) {
    try self.init(roots: [root], mode: mode, limits: limits)
  }

  /// The skill with this name, if one was loaded.
  public func skill(named name: String) -> LoadedSkill? {
    loadedSkills.first { $0.name == name }
  }

  /// The loaded skills' names, sorted.
  public var names: [String] { loadedSkills.map(\.name) }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains(where: \.isError) }
}
