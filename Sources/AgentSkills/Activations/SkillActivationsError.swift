/// Why activations could not be saved or loaded.
public enum SkillActivationsError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be written; nothing at `path` was changed.
  case cannotWrite(path: String, reason: String)
  /// The file could not be read.
  case cannotRead(path: String, reason: String)
  /// The file is not an activations snapshot.
  case corrupt(path: String, reason: String)
  /// The file was written by a newer version of ContextKit.
  case unsupportedVersion(path: String, version: Int)

  /// What went wrong and where.
  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason): "\(path): cannot save skill activations: \(reason)"
    case .cannotRead(let path, let reason): "\(path): cannot read skill activations: \(reason)"
    case .corrupt(let path, let reason): "\(path): not a skill activations file: \(reason)"
    case .unsupportedVersion(let path, let version):
      "\(path): skill activations file version \(version) is newer than this reader "
        + "(\(SkillActivationsSnapshot.currentVersion))"
    }
  }
}
