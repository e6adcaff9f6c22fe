/// Why a skill's resource could not be resolved or read.
public enum SkillResourceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path is empty or not a usable relative path.
  case invalidPath(String, skill: String)
  /// The path is absolute, climbs out with `..`, or goes through a symbolic link that leaves the folder.
  case outsideSkillFolder(String, skill: String)
  /// Nothing is at the path inside the skill folder.
  case notFound(String, skill: String)
  /// The path names a folder, FIFO, device or anything else that is not a regular file.
  case notAFile(String, skill: String)
  /// The file exists but could not be read.
  case unreadable(String, skill: String, reason: String)
  /// The file is not UTF-8 text (it holds NUL bytes or invalid UTF-8), so it is not handed out as text.
  case binary(String, skill: String, size: Int)

  /// What went wrong, naming the skill and the path.
  public var description: String {
    switch self {
    case .invalidPath(let path, let skill):
      "skill \"\(skill)\": \"\(path)\" is not a relative path to a file in the skill folder"
    case .outsideSkillFolder(let path, let skill):
      "skill \"\(skill)\": \"\(path)\" leads outside the skill folder; only the skill's own files can be read"
    case .notFound(let path, let skill):
      "skill \"\(skill)\": no file \"\(path)\" in the skill folder"
    case .notAFile(let path, let skill):
      "skill \"\(skill)\": \"\(path)\" is not a regular file"
    case .unreadable(let path, let skill, let reason):
      "skill \"\(skill)\": \"\(path)\" cannot be read: \(reason)"
    case .binary(let path, let skill, let size):
      "skill \"\(skill)\": \"\(path)\" is a binary file (\(CountFormatting.grouped(size)) bytes); "
        + "only text resources can be read"
    }
  }
}

extension SkillResourceError {
  /// The resource error for a file the folder reader refused.
  init(_ error: SkillFileReadError, skill: String) {
    switch error.problem {
    case .invalidPath: self = .invalidPath(error.path, skill: skill)
    case .notFound: self = .notFound(error.path, skill: skill)
    case .leavesFolder: self = .outsideSkillFolder(error.path, skill: skill)
    case .notARegularFile: self = .notAFile(error.path, skill: skill)
    case .unreadable(let reason), .folderUnavailable(let reason):
      self = .unreadable(error.path, skill: skill, reason: reason)
    case .symbolicLink, .tooManyLinks, .tooLarge:
      self = .unreadable(error.path, skill: skill, reason: "it " + error.reason)
    }
  }
}
