import Foundation
import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a skill body's links against the files in the skill folder, and lists
/// those files, without reading any of them.
struct SkillFolderChecker {
  let canonicalFolder: String
  let limits: SkillLoaderLimits

  /// The links that name existing files inside the folder; the others are reported.
  ///
  /// `resources` (from ``resources(inFolder:into:)``) are known to be inside, so only
  /// other paths need their symbolic links resolved.
  func links(
    _ destinations: [MarkdownOutline.Destination], resources: Set<String>,
    into diagnostics: inout DiagnosticCollector
  ) -> [SkillLink] {
    var links: [SkillLink] = []
    for destination in destinations {
      guard let written = Self.localPath(destination.destination) else { continue }
      let decoded = written.contains("%") ? (written.removingPercentEncoding ?? written) : written
      let shown = destination.destination
      guard let relative = RelativePath.normalized(decoded) else {
        let climbs = decoded.split(separator: "/").contains("..")
        if decoded.hasPrefix("/") || decoded.hasPrefix("~") || climbs {
          report(
            "link \"\(shown)\" leaves the skill folder; link only to the skill's own files with relative paths",
            at: destination, into: &diagnostics)
        }
        continue  // otherwise a link to the folder itself, such as "./"
      }
      if !resources.contains(relative) {
        let joined = canonicalFolder + "/" + relative
        guard FileSystem.kind(of: joined) != nil, let canonical = FileSystem.realPath(joined) else {
          guard
            let resolved = resolveIgnoringCase(
              relative, shown: shown, at: destination, resources: resources, into: &diagnostics)
          else { continue }
          links.append(
            SkillLink(destination: shown, path: resolved, line: destination.line, column: destination.column))
          continue
        }
        guard FileSystem.isInside(canonical, folder: canonicalFolder) else {
          report(
            "link \"\(shown)\" goes through a symbolic link that leaves the skill folder", at: destination,
            into: &diagnostics)
          continue
        }
      }
      links.append(
        SkillLink(destination: shown, path: relative, line: destination.line, column: destination.column))
    }
    return links
  }

  /// The one listed resource a link names when letter case is ignored
  /// (`FORMS.md` for `forms.md`), reported as questionable; `nil`, with the
  /// link reported as broken, when none or several match.
  private func resolveIgnoringCase(
    _ relative: String, shown: String, at destination: MarkdownOutline.Destination, resources: Set<String>,
    into diagnostics: inout DiagnosticCollector
  ) -> String? {
    let folded = relative.lowercased()
    let candidates = resources.filter { $0.lowercased() == folded }.sorted()
    guard candidates.count == 1, let resolved = candidates.first else {
      let which =
        candidates.isEmpty
        ? "" : "; with case ignored it could be " + candidates.map { "\"\($0)\"" }.joined(separator: " or ")
      report(
        "link \"\(shown)\" points to a file that does not exist in the skill folder\(which)", at: destination,
        into: &diagnostics)
      return nil
    }
    // It resolves, and the reference validator does not read links: a warning in both modes.
    diagnostics.warning(
      "link \"\(shown)\" names \"\(resolved)\" in another case; it works only on a disk that ignores case, "
        + "so it is read as \"\(resolved)\" (write the name as the file has it)",
      line: destination.line, column: destination.column)
    return resolved
  }

  private func report(
    _ message: String, at destination: MarkdownOutline.Destination,
    into diagnostics: inout DiagnosticCollector
  ) {
    diagnostics.questionable(message, line: destination.line, column: destination.column)
  }

  /// The path part of a destination that names a local file, or `nil` for web
  /// links, `mailto:` and other schemes, and links within the page (`#...`).
  static func localPath(_ destination: String) -> String? {
    var path = Substring(destination)
    if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = path[..<cut] }
    guard !path.isEmpty else { return nil }
    if let colon = path.firstIndex(of: ":") {
      let scheme = path[..<colon]
      let isScheme =
        scheme.first?.isLetter == true
        && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
      if isScheme { return nil }
    }
    if path.hasPrefix("//") { return nil }
    return String(path)
  }

  /// Every file in the folder except the top-level `SKILL.md`, sorted by path,
  /// with its size and whether it is text; hidden names (starting with `.`)
  /// are skipped, and symbolic links that leave the folder are reported.
  ///
  /// `folderDescriptor` is an open descriptor of the skill folder, which the
  /// caller keeps and closes: the walk opens each folder below it relative to
  /// its parent (never following a link), so no path is looked up from the root again.
  func resources(
    inFolder folderDescriptor: Int32, into diagnostics: inout DiagnosticCollector
  ) -> [SkillResource] {
    var files: [(path: String, size: Int)] = []
    var truncated = false
    walk(
      folderDescriptor, relative: "", depth: 0, files: &files, truncated: &truncated,
      diagnostics: &diagnostics)
    if truncated {
      diagnostics.warning(
        "the skill folder holds more than \(CountFormatting.grouped(limits.maximumResources)) files; "
          + "only the first are listed as resources")
    }
    return files.sorted { $0.path < $1.path }.map { file in
      SkillResource(
        path: file.path, size: file.size,
        content: ResourceContentClassifier.content(forPath: file.path) ?? sniff(file.path, size: file.size))
    }
  }

  /// Reads the start of a file whose extension says nothing, to tell text from binary.
  private func sniff(_ path: String, size: Int) -> SkillResource.Content {
    if size == 0 { return .text }
    let reader = ResourceWindowReader(canonicalFolder: canonicalFolder)
    guard let start = try? reader.read(path, offset: 0, count: ResourceContentClassifier.sniffLength)
    else { return .binary }
    return ResourceContentClassifier.isText(start.bytes, isPrefix: start.bytes.count < start.fileSize)
      ? .text : .binary
  }

  private func walk(
    _ directory: Int32, relative: String, depth: Int, files: inout [(path: String, size: Int)],
    truncated: inout Bool, diagnostics: inout DiagnosticCollector
  ) {
    let listing: FileSystem.Listing
    switch FileSystem.contentsOfDirectory(descriptor: directory) {
    case .success(let value): listing = value
    case .failure(let error):
      reportUnlisted(relative, reason: error.reason, into: &diagnostics)
      return
    }
    for name in listing.undecodable {
      diagnostics.questionable(
        "the name \"\(relative.isEmpty ? name : relative + "/" + name)\" is not valid UTF-8; "
          + "rename it (it is not a resource)")
    }
    for entry in listing.entries where !entry.name.hasPrefix(".") {
      let name = entry.name
      if relative.isEmpty && name == "SKILL.md" { continue }
      let path = relative.isEmpty ? name : relative + "/" + name
      let kind = entry.isDirectory ? .directory : FileSystem.kind(of: name, in: directory)
      switch kind == .symbolicLink ? linkedKind(path, diagnostics: &diagnostics) : kind {
      case .file(let size):
        guard files.count < limits.maximumResources else {
          truncated = true
          return
        }
        files.append((path, size))
      case .directory where depth + 1 < limits.maximumDepth:
        let child = name.withCString {
          openat(directory, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard child >= 0 else {
          reportUnlisted(path, reason: FileKind.lastError(), into: &diagnostics)
          continue
        }
        defer { close(child) }
        walk(
          child, relative: path, depth: depth + 1, files: &files, truncated: &truncated,
          diagnostics: &diagnostics)
      case .directory:
        diagnostics.questionable(
          "the folder \"\(path)\" is at the depth limit: its files, more than \(limits.maximumDepth) "
            + (limits.maximumDepth == 1 ? "level" : "levels") + " below the skill folder, are not resources")
      default:
        continue
      }
    }
  }

  /// What the symbolic link at `path` leads to when it stays inside the skill
  /// folder; `nil` when it leaves it or leads nowhere (reported), or when it
  /// leads to a folder inside (its files are listed where they really are).
  private func linkedKind(_ path: String, diagnostics: inout DiagnosticCollector) -> FileSystem.Kind? {
    let absolute = canonicalFolder + "/" + path
    guard let target = FileSystem.realPath(absolute), FileSystem.isInside(target, folder: canonicalFolder)
    else {
      diagnostics.questionable(
        "resource \"\(path)\" is a symbolic link that leaves the skill folder (or leads nowhere); "
          + "it is not listed")
      return nil
    }
    let kind = FileSystem.followedKind(of: target)
    return kind == .directory ? nil : kind
  }

  private func reportUnlisted(_ relative: String, reason: String, into diagnostics: inout DiagnosticCollector)
  {
    diagnostics.questionable(
      "the folder \"\(relative.isEmpty ? "." : relative)\" cannot be listed (\(reason)); "
        + "its files are not resources")
  }
}
