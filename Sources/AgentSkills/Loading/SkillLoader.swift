import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads and validates one skill folder: a folder holding `SKILL.md` and any other files.
///
/// ```swift
/// let loader = SkillLoader(mode: .strict)
/// let skill = try loader.load(folder: URL(fileURLWithPath: "SkillsLibrary/reviewing-sql"))
/// ```
///
/// Loading never crashes and never reads outside the folder: `SKILL.md` must be
/// valid UTF-8 of at most ``SkillLoaderLimits/maximumFileSize`` bytes, and a
/// `SKILL.md` or resource that is a symbolic link leaving the folder is refused.
public struct SkillLoader: Sendable {
  /// How strictly skills are checked.
  public var mode: SkillValidationMode
  /// The bounds on file size, depth and counts.
  public var limits: SkillLoaderLimits

  /// Creates a loader; lenient with the standard limits unless told otherwise.
  public init(mode: SkillValidationMode = .lenient, limits: SkillLoaderLimits = .standard) {
    self.mode = mode
    self.limits = limits
  }

  /// Loads the skill in `folder`, throwing the first error with every diagnostic found.
  ///
  /// In lenient mode, warnings are kept in ``LoadedSkill/diagnostics``; in strict
  /// mode, what would be a warning about the skill's content is an error.
  public func load(folder: URL) throws(SkillLoadingError) -> LoadedSkill {
    let report = inspect(folder: folder)
    if let error = report.firstError { throw SkillLoadingError(error, all: report.diagnostics) }
    guard let skill = report.skill else {
      throw SkillLoadingError(
        SkillDiagnostic(severity: .error, path: folder.path, message: "the skill could not be loaded"),
        all: report.diagnostics)
    }
    return skill
  }

  /// Loads the skill in `folder` and reports what was found, without throwing.
  public func inspect(folder: URL) -> SkillLoadReport {
    var folderDiagnostics = DiagnosticCollector(path: folder.path, mode: mode)
    guard let canonicalFolder = checkFolder(folder.path, into: &folderDiagnostics) else {
      return SkillLoadReport(folder: folder, skill: nil, diagnostics: folderDiagnostics.diagnostics)
    }
    return inspect(folder: folder, canonicalFolder: canonicalFolder)
  }

  /// Loads a folder whose canonical path is already known (discovery has it).
  func inspect(folder: URL, canonicalFolder: String) -> SkillLoadReport {
    let filePath = folder.path + "/SKILL.md"
    var diagnostics = DiagnosticCollector(path: filePath, mode: mode)
    // One descriptor of the folder serves to read SKILL.md and to list the resources.
    let reader = SkillFolderReader(folder: canonicalFolder, symbolicLinks: .refuse)
    let folderDescriptor: Int32
    do {
      folderDescriptor = try reader.openFolder(for: "SKILL.md")
    } catch {
      diagnostics.error(error.description)
      return SkillLoadReport(folder: folder, skill: nil, diagnostics: diagnostics.diagnostics)
    }
    defer { close(folderDescriptor) }
    guard
      let bytes = readSkillFile(
        filePath, reader: reader, folderDescriptor: folderDescriptor, into: &diagnostics)
    else {
      return SkillLoadReport(folder: folder, skill: nil, diagnostics: diagnostics.diagnostics)
    }
    let skill = parse(
      bytes, folder: folder, canonicalFolder: canonicalFolder, folderDescriptor: folderDescriptor,
      folderName: Self.folderName(of: folder, canonical: canonicalFolder),
      into: &diagnostics)
    return SkillLoadReport(
      folder: folder, skill: diagnostics.hasErrors ? nil : skill, diagnostics: diagnostics.diagnostics)
  }

  // MARK: - Steps

  /// The folder's name as given, or its real name when given as `.` or `..`.
  static func folderName(of folder: URL, canonical: String) -> String {
    let given = folder.lastPathComponent
    if given.isEmpty || given == "." || given == ".." || given == "/" {
      return canonical.split(separator: "/").last.map(String.init) ?? given
    }
    return given
  }

  private func checkFolder(_ path: String, into diagnostics: inout DiagnosticCollector) -> String? {
    guard FileSystem.followedKind(of: path) == .directory, let canonical = FileSystem.realPath(path) else {
      diagnostics.error(
        FileSystem.kind(of: path) == nil
          ? "no such folder" : "not a folder; a skill is a folder holding SKILL.md")
      return nil
    }
    return canonical
  }

  /// Reads `SKILL.md` through the folder's descriptor: a symbolic link, FIFO, device
  /// or folder named `SKILL.md` is refused (without blocking), and nothing outside is read.
  private func readSkillFile(
    _ path: String, reader: SkillFolderReader, folderDescriptor: Int32,
    into diagnostics: inout DiagnosticCollector
  ) -> [UInt8]? {
    do {
      return try reader.read("SKILL.md", inFolder: folderDescriptor, limit: limits.maximumFileSize)
    } catch {
      switch error.problem {
      case .notFound:
        let lowercase = (path as NSString).deletingLastPathComponent + "/skill.md"
        diagnostics.error(
          FileSystem.kind(of: lowercase) == nil
            ? "no SKILL.md in this folder; a skill is a folder holding SKILL.md"
            : "the file is named skill.md; rename it to SKILL.md")
      case .tooLarge(let size, _):
        diagnostics.error(
          "SKILL.md is \(CountFormatting.grouped(size)) bytes; the limit is "
            + "\(CountFormatting.grouped(limits.maximumFileSize)) bytes. "
            + "Move long material into files the body links to (references/...)")
      default:
        diagnostics.error(error.description)
      }
      return nil
    }
  }

  /// The front matter's YAML tree; when it does not parse, the client guide's
  /// fallback (``UnquotedColonFallback``) is tried, and each line it quoted is
  /// a questionable finding. `nil` (with an error) when neither parses.
  private static func frontMatterRoot(
    _ source: SkillSourceText, into diagnostics: inout DiagnosticCollector
  ) -> YAMLNode?? {
    let error: YAMLReader.SyntaxError
    switch YAMLReader.parse(source.frontMatter) {
    case .success(let node): return .some(node)
    case .failure(let failure): error = failure
    }
    let firstLine = source.frontMatterFirstLine
    let quoted = UnquotedColonFallback.quotingColonValues(in: source.frontMatter)
    let joined = SurrogateEscapeFallback.joiningSurrogatePairs(in: quoted?.text ?? source.frontMatter)
    if quoted != nil || joined != nil,
      case .success(let node) = YAMLReader.parse(joined?.text ?? quoted?.text ?? source.frontMatter)
    {
      for line in quoted?.lines ?? [] {
        diagnostics.questionable(
          "YAML cannot read this line: its value holds \": \" without quotes; it was read as if quoted, "
            + "as other agents do (put the value in double quotes)",
          line: line + firstLine - 1, column: 1)
      }
      // JSON and the reference validator read these pairs: a warning in both modes.
      for line in joined?.lines ?? [] {
        diagnostics.warning(
          "YAML cannot read this line: it writes a character as a JSON surrogate pair (\\uD8..\\uDC..); "
            + "it was read as that character (write the character itself, or \\U0001XXXX)",
          line: line + firstLine - 1, column: 1)
      }
      return .some(node)
    }
    diagnostics.error(
      error.describe(firstLine: firstLine), line: error.line + firstLine - 1, column: error.column)
    return nil
  }

  private func parse(
    _ bytes: [UInt8], folder: URL, canonicalFolder: String, folderDescriptor: Int32, folderName: String,
    into diagnostics: inout DiagnosticCollector
  ) -> LoadedSkill? {
    let source: SkillSourceText
    switch SkillSourceText.parse(bytes) {
    case .success(let value): source = value
    case .failure(let problem):
      diagnostics.error(problem.message, line: problem.line, column: problem.column)
      return nil
    }
    guard let root = Self.frontMatterRoot(source, into: &diagnostics) else { return nil }
    let reader = FrontMatterReader(firstLine: source.frontMatterFirstLine, folderName: folderName)
    let frontMatter = reader.read(root, into: &diagnostics)
    if source.body.allSatisfy(\.isWhitespace) {
      diagnostics.warning(
        "the body is empty; write the instructions the model should follow after the closing ---",
        line: source.bodyFirstLine)
    }
    let outline = MarkdownOutline.parse(source.body, firstLine: source.bodyFirstLine)
    let checker = SkillFolderChecker(canonicalFolder: canonicalFolder, limits: limits)
    let resources = checker.resources(inFolder: folderDescriptor, into: &diagnostics)
    let links = checker.links(outline.destinations, resources: Set(resources.map(\.path)), into: &diagnostics)
    guard let frontMatter else { return nil }
    return LoadedSkill(
      frontMatter: frontMatter, body: source.body, bodyFirstLine: source.bodyFirstLine,
      sections: outline.sections, links: links, resources: resources, folder: folder,
      canonicalFolder: canonicalFolder, diagnostics: diagnostics.diagnostics)
  }
}
