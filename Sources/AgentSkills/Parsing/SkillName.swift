/// What a loaded skill's name may hold.
///
/// Lenient loading keeps names that break the Agent Skills naming rules
/// (capitals, `_`, a leading digit, more than 64 characters), as other agents
/// do; a name is only unusable when it could not be shown or stored safely.
enum SkillName {
  /// The most characters a usable name has.
  static let maximumLength = 1_024

  /// Whether `name` can name a skill: not empty, at most ``maximumLength``
  /// characters, and without control characters or bidirectional overrides
  /// (which would let a name forge lines or reorder text where it is shown).
  static func isUsable(_ name: String) -> Bool {
    guard !name.isEmpty, name.unicodeScalars.count <= maximumLength else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      switch scalar.value {
      case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: false
      default: true
      }
    }
  }
}
