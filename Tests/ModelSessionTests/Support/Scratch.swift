import Foundation
import TestSupport

/// A temporary folder removed when the test ends.
final class Scratch {
  let folder: TemporaryFolder
  var path: String { folder.path }

  init() throws { folder = try TemporaryFolder(named: "ck-files") }

  deinit { folder.remove() }

  func file(_ name: String) -> String { path + "/" + name }

  func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
