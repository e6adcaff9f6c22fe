/// Why a file inside a skill folder was not read, naming the path as given.
struct SkillFileReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong.
  enum Problem: Sendable, Hashable {
    /// The path is empty or holds a NUL byte.
    case invalidPath
    /// Nothing is at the path (or a folder on the way is missing or a file).
    case notFound
    /// The path is absolute, climbs out with `..`, or goes through a symbolic link leading outside.
    case leavesFolder
    /// A symbolic link is on the path, and links are refused.
    case symbolicLink
    /// More than ``SkillFolderReader/maximumLinks`` links were resolved.
    case tooManyLinks
    /// The path names something other than a regular file; `kind` says what ("a FIFO (named pipe)").
    case notARegularFile(kind: String)
    /// The file is larger than the limit.
    case tooLarge(size: Int, limit: Int)
    /// The skill folder itself could not be opened.
    case folderUnavailable(reason: String)
    /// The file exists but could not be read.
    case unreadable(reason: String)
  }

  /// The path as the caller gave it, relative to the skill folder.
  let path: String
  /// What was wrong.
  let problem: Problem

  /// The reason, without the path: "is a FIFO (named pipe), not a regular file".
  var reason: String {
    switch problem {
    case .invalidPath: "is not a relative path to a file in the skill folder"
    case .notFound: "does not exist in the skill folder"
    case .leavesFolder: "leads outside the skill folder; only the skill's own files are read"
    case .symbolicLink: "is a symbolic link; it must be a regular file in the skill folder, and is not read"
    case .tooManyLinks: "goes through more than \(SkillFolderReader.maximumLinks) symbolic links"
    case .notARegularFile(let kind): "is \(kind), not a regular file; it is not read"
    case .tooLarge(let size, let limit):
      "is \(CountFormatting.grouped(size)) bytes; the limit is \(CountFormatting.grouped(limit)) bytes"
    case .folderUnavailable(let reason): "cannot be read: the skill folder cannot be opened (\(reason))"
    case .unreadable(let reason): "cannot be read: \(reason)"
    }
  }

  /// The path and the reason: "references/pipe.md is a FIFO (named pipe), not a regular file; it is not read".
  var description: String { "\(path) \(reason)" }
}
