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
/// reported in ``diagnostics``; in strict mode the first error is thrown. When two
/// skills share a name, the one under the earlier root (or, under one root, the
/// earlier path) wins and the other is reported. Hidden folders (`.git`, `.build`)
/// are not searched, and the inside of a skill folder is not searched for more skills.
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
    var byName: [String: LoadedSkill] = [:]
    func stopIfStrict() throws(SkillLoadingError) {
      if mode == .strict, let error = diagnostics.first(where: \.isError) {
        throw SkillLoadingError(error, all: diagnostics)
      }
    }
    for root in roots {
      let found = discovery.skillFolders(under: root.path)
      diagnostics += found.diagnostics
      try stopIfStrict()
      for report in ParallelLoader.inspect(found.folders, with: loader) {
        diagnostics += report.diagnostics
        try stopIfStrict()
        guard let skill = report.skill else { continue }
        if let winner = byName[skill.name] {
          diagnostics.append(
            SkillDiagnostic(
              severity: .warning, path: skill.file.path, line: 0, column: 0,
              message: "skill \"\(skill.name)\" is hidden by the skill of the same name in "
                + "\(winner.folder.path) (earlier roots win)"))
        } else {
          byName[skill.name] = skill
        }
      }
    }
    self.roots = roots
    self.loadedSkills = byName.values.sorted { $0.name < $1.name }
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
