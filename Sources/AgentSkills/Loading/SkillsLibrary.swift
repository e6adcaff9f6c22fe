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
  /// The roots searched, in order of precedence.
  public let roots: [URL]
  /// The loaded skills, sorted by name; names are unique.
  public let loadedSkills: [LoadedSkill]
  /// Every problem found: skills that failed, warnings, name clashes and bounds reached.
  public let diagnostics: [SkillDiagnostic]

  /// Searches `roots` for skill folders and loads them.
  ///
  /// - Throws: In strict mode only, the first error, with every diagnostic found before it.
  public init(
    roots: [URL], mode: SkillValidationMode = .lenient, limits: SkillLoaderLimits = .standard
  ) throws(SkillLoadingError) {
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
    self.roots = roots
    self.loadedSkills = byName.values.map(\.skill).sorted { $0.name < $1.name }
    self.diagnostics = diagnostics
  }

  /// Searches one root; see ``init(roots:mode:limits:)``.
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
