/// Why activations could not be saved or loaded.
public enum SkillActivationsError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be written; nothing at `path` was changed.
  case cannotWrite(path: String, reason: String)
  /// The file could not be read.
  case cannotRead(path: String, reason: String)
  /// The file is not an activations snapshot.
  case corrupt(path: String, reason: String)
  /// The file's format version is not one this reader knows: newer than
  /// ``SkillActivationsSnapshot/currentVersion``, or below 1.
  case unsupportedVersion(path: String, version: Int)
  /// The file names a skill with a name no skill can have (such as `../../etc/passwd`).
  case invalidSkillName(path: String, name: String)

  /// What went wrong and where.
  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason): "\(path): cannot save skill activations: \(reason)"
    case .cannotRead(let path, let reason): "\(path): cannot read skill activations: \(reason)"
    case .corrupt(let path, let reason): "\(path): not a skill activations file: \(reason)"
    case .unsupportedVersion(let path, let version) where version > SkillActivationsSnapshot.currentVersion:
      "\(path): skill activations file version \(version) is newer than this reader "
        + "(\(SkillActivationsSnapshot.currentVersion))"
    case .unsupportedVersion(let path, let version):
      "\(path): skill activations file version \(version) is not a valid version "
        + "(versions start at 1; this reader knows 1 to \(SkillActivationsSnapshot.currentVersion))"
    case .invalidSkillName(let path, let name):
      "\(path): \"\(name)\" cannot be a skill name (it is empty, longer than "
        + "\(CountFormatting.grouped(SkillName.maximumLength)) characters, or holds a control character); "
        + "the file is not loaded"
    }
  }
}
