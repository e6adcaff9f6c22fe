import Foundation

/// A folder of its own under the system's temporary folder, for a test's
/// files: made on creation with a unique name, removed (with everything in
/// it) by ``remove()``, so that a test run leaves nothing behind.
///
/// Remove it in a `defer` right after making it, or let
/// ``withTemporaryFolder(named:_:)`` do both:
///
/// ```swift
/// let folder = try TemporaryFolder(named: "records")
/// defer { folder.remove() }
/// try data.write(to: folder.url("records.json"))
/// ```
public struct TemporaryFolder: Sendable {
  /// The folder.
  public let url: URL

  /// The folder's path.
  public var path: String { url.path }

  /// Makes a new, empty folder named `<name>-<UUID>` in the system's temporary folder.
  public init(named name: String = "contextkit-test") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
  }

  /// The URL of `relativePath` inside the folder (nothing is made).
  public func url(_ relativePath: String) -> URL { url.appendingPathComponent(relativePath) }

  /// The path of `relativePath` inside the folder (nothing is made).
  public func path(_ relativePath: String) -> String { url(relativePath).path }

  /// Removes the folder and everything in it; nothing happens when it is already gone.
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }

  /// Removes the folder with `rm -rf`, for trees of thousands of files:
  /// Foundation's recursive removal takes minutes for tens of thousands.
  public func removeLargeTree() {
    let remover = Process()
    remover.executableURL = URL(fileURLWithPath: "/bin/rm")
    remover.arguments = ["-rf", url.path]
    if (try? remover.run()) != nil {
      remover.waitUntilExit()
    }
    remove()
  }
}

/// Runs `body` with a new ``TemporaryFolder`` and removes the folder
/// afterwards, also when `body` throws.
public func withTemporaryFolder<Result>(
  named name: String = "contextkit-test", _ body: (TemporaryFolder) throws -> Result
) throws -> Result {
  let folder = try TemporaryFolder(named: name)
  defer { folder.remove() }
  return try body(folder)
}
