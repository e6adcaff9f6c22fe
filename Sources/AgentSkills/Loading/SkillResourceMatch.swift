/// Which of a skill's resources a path names, as a body or a model wrote it.
///
/// Skills written on a case-insensitive disk (macOS, Windows) often say
/// "read FORMS.md" when the file is `forms.md`; on Linux that name finds
/// nothing. ``LoadedSkill/matchResource(_:)`` accepts such a path when exactly
/// one resource matches it with letter case ignored, and says so.
public enum SkillResourceMatch: Sendable, Hashable {
  /// The path names this resource exactly (after `./` and `//` are removed).
  case exact(SkillResource)
  /// No resource has exactly this path, and this one is the only resource
  /// whose path is the same when letter case is ignored.
  case ignoringCase(SkillResource)
  /// Several resources have the path when letter case is ignored (`Notes.md`
  /// and `notes.md`): the candidates, sorted by path. None is chosen.
  case ambiguous([SkillResource])
  /// No resource matches, in any case.
  case none

  /// The resource matched, exactly or as the only one ignoring case.
  public var resource: SkillResource? {
    switch self {
    case .exact(let resource), .ignoringCase(let resource): resource
    case .ambiguous, .none: nil
    }
  }
}

extension LoadedSkill {
  /// The resource `path` names: exactly, or as the only one whose path is the
  /// same with letter case ignored.
  ///
  /// ```swift
  /// switch skill.matchResource("FORMS.md") {
  /// case .exact(let file), .ignoringCase(let file): print(try skill.readTextResource(file.path).text)
  /// case .ambiguous(let candidates): print("which one?", candidates.map(\.path))
  /// case .none: print("no such file")
  /// }
  /// ```
  public func matchResource(_ path: String) -> SkillResourceMatch {
    guard let normalized = RelativePath.normalized(path) else { return .none }
    return Self.match(normalized, in: resources)
  }

  /// The match for an already normalised path among `resources`.
  static func match(_ normalized: String, in resources: [SkillResource]) -> SkillResourceMatch {
    if let exact = resources.first(where: { $0.path == normalized }) { return .exact(exact) }
    let folded = normalized.lowercased()
    let candidates = resources.filter { $0.path.lowercased() == folded }
    switch candidates.count {
    case 0: return .none
    case 1: return .ignoringCase(candidates[0])
    default: return .ambiguous(candidates.sorted { $0.path < $1.path })
    }
  }
}
