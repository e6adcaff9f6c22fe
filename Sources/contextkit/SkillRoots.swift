import ContextKit
import Foundation

/// The skills under the roots a skills subcommand was given: positional, as
/// many as wanted, `./SkillsLibrary` when none (earlier roots win a name clash).
/// With `--project DIR`, the folders an agent searches for that project and
/// the user (`DIR/.agents/skills`, `DIR/.claude/skills`, `~/.agents/skills`,
/// `~/.claude/skills`), those that exist, then the roots given.
struct SkillRoots {
  /// The roots as given.
  var paths: [String]
  /// The project of `--project`, whose standard roots come first.
  var project: String?
  /// The user's folder for `--project` (`--home`, or `HOME`).
  var home: String?

  /// The default root.
  static let defaultPath = "SkillsLibrary"

  /// Takes every positional argument left (and any `--root`, the older spelling) as a root.
  init(_ arguments: inout CommandLineArguments) throws(CommandLineArguments.UsageError) {
    let project = try arguments.option("--project")
    let home = try arguments.option("--home")
    let options = try Self.rootOptions(&arguments)
    self.init(options + arguments.remainingPositionals(), project: project, home: home)
  }

  /// These roots, or the default when there are none and no project is given.
  init(_ paths: [String], project: String? = nil, home: String? = nil) {
    self.paths = paths.isEmpty && project == nil ? [Self.defaultPath] : paths
    self.project = project
    self.home = home ?? ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The standard roots of `--project` and the user (`HOME`), or none.
  private var standardRoots: [URL] {
    guard let project else { return [] }
    return SkillsLibrary.standardRoots(
      project: URL(fileURLWithPath: project, isDirectory: true),
      home: home.map { URL(fileURLWithPath: $0, isDirectory: true) })
  }

  /// Removes and returns the values of every `--root` option (the older spelling).
  static func rootOptions(
    _ arguments: inout CommandLineArguments
  ) throws(CommandLineArguments.UsageError) -> [String] {
    var paths: [String] = []
    while let root = try arguments.option("--root") { paths.append(root) }
    return paths
  }

  /// The library, with a diagnostic for each root that is not a folder;
  /// diagnostics sorted by file, line and column.
  func load() throws -> (library: SkillsLibrary, diagnostics: [SkillDiagnostic]) {
    var missing: [SkillDiagnostic] = []
    var folders: [URL] = []
    if let project {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: project, isDirectory: &isFolder), isFolder.boolValue else {
        missing.append(SkillDiagnostic(severity: .error, path: project, message: "no such project folder"))
        return (try SkillsLibrary(roots: []), missing)
      }
      folders = standardRoots.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
    for path in paths {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
        folders.append(URL(fileURLWithPath: path, isDirectory: true))
      } else {
        missing.append(SkillDiagnostic(severity: .error, path: path, message: "no such folder"))
      }
    }
    let library = try SkillsLibrary(roots: folders)
    return (library, (missing + library.diagnostics).sortedByLocation())
  }
}

extension Sequence<SkillDiagnostic> {
  /// Sorted by file, then line, then column (then severity, errors before
  /// warnings, and message, so the order is total).
  func sortedByLocation() -> [SkillDiagnostic] {
    sorted {
      ($0.path, $0.line, $0.column, $0.severity.rawValue, $0.message)
        < ($1.path, $1.line, $1.column, $1.severity.rawValue, $1.message)
    }
  }
}

/// A loaded skill as `--json` shows it in `list` and `show`.
struct SkillSummary: Encodable {
  var name: String
  var description: String
  /// `prompt` or `instructions`.
  var flavour: String
  var allowsDeactivation: Bool
  /// `false` for `disable-model-invocation: true`: hidden from the model, for the user and the app to activate.
  var allowsModelInvocation: Bool
  var folder: String

  init(_ skill: LoadedSkill) {
    name = skill.name
    description = skill.description
    flavour = skill.activation.rawValue
    allowsDeactivation = skill.allowsDeactivation
    allowsModelInvocation = skill.allowsModelInvocation
    folder = skill.folder.path
  }
}
