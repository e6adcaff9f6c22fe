import Foundation
import TestSupport

/// A temporary folder of real skill files, removed when the test ends.
final class SkillFixture {
  let folder: TemporaryFolder
  var root: URL { folder.url }

  init() throws {
    folder = try TemporaryFolder(named: "agentskills")
  }

  deinit {
    folder.remove()
  }

  /// Writes `text` as `relativePath` under the root, creating folders.
  @discardableResult
  func write(_ text: String, to relativePath: String) throws -> URL {
    try write(Data(text.utf8), to: relativePath)
  }

  /// Writes raw bytes as `relativePath` under the root, creating folders.
  @discardableResult
  func write(_ data: Data, to relativePath: String) throws -> URL {
    let url = root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
  }

  /// Writes a skill folder `name` with the given front matter lines and body.
  @discardableResult
  func skill(
    _ name: String, in parent: String = "", frontMatter: String? = nil,
    body: String = "# Use\n\nDo the thing.\n"
  ) throws -> URL {
    let yaml = frontMatter ?? "name: \(name)\ndescription: Does \(name) things when asked."
    let folder = parent.isEmpty ? name : parent + "/" + name
    try write("---\n\(yaml)\n---\n\(body)", to: folder + "/SKILL.md")
    return root.appendingPathComponent(folder, isDirectory: true)
  }

  /// Makes a symbolic link at `relativePath` pointing to `destination`.
  func link(_ relativePath: String, to destination: String) throws {
    let url = root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
  }

  func url(_ relativePath: String) -> URL {
    root.appendingPathComponent(relativePath)
  }
}
