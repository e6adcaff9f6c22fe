import Foundation

extension SkillsLibrary {
  /// The folders where agents keep skills, in order of precedence: the
  /// project's, then the user's, then the app's own.
  ///
  /// - `<project>/.agents/skills` and `<project>/.claude/skills`, when a project is given;
  /// - `<home>/.agents/skills` and `<home>/.claude/skills`, when a home folder is given;
  /// - then each of `app`, as given (the skills an app ships with).
  ///
  /// ```swift
  /// let roots = SkillsLibrary.standardRoots(
  ///   project: projectFolder, home: FileManager.default.homeDirectoryForCurrentUser,
  ///   app: [Bundle.main.resourceURL!.appendingPathComponent("Skills")])
  /// ```
  public static func standardRoots(project: URL?, home: URL?, app: [URL] = []) -> [URL] {
    var roots: [URL] = []
    for base in [project, home].compactMap(\.self) {
      for agent in [".agents", ".claude"] {
        roots.append(
          base.appendingPathComponent(agent, isDirectory: true).appendingPathComponent(
            "skills", isDirectory: true))
      }
    }
    return roots + app
  }

  /// Loads the skills an agent would see for a project and a user: every
  /// folder of ``standardRoots(project:home:app:)`` that exists, in that order,
  /// so a project's skill hides a user's skill of the same name (a warning
  /// names both), and folders that do not exist are passed over in silence.
  ///
  /// ```swift
  /// var library = try SkillsLibrary(project: projectFolder)   // home: the user's home folder
  /// ```
  ///
  /// - Throws: In strict mode only, the first error.
  public init(
    project: URL?, home: URL? = FileManager.default.homeDirectoryForCurrentUser, app: [URL] = [],
    mode: SkillValidationMode = .lenient, limits: SkillLoaderLimits = .standard
  ) throws(SkillLoadingError) {
    try self.init(
      roots: Self.standardRoots(project: project, home: home, app: app), mode: mode, limits: limits,
      missingRoots: .skipped)
  }
}
