extension SkillActivationsSnapshot {
  /// Checks a snapshot read from `path`: a known version (1 through
  /// ``currentVersion``) and only names a skill can have (``SkillName/isUsable(_:)``).
  func validate(path: String) throws(SkillActivationsError) {
    guard (1...Self.currentVersion).contains(version) else {
      throw .unsupportedVersion(path: path, version: version)
    }
    if let bad = (activeSkillNames + loadedSkillNames).first(where: { !SkillName.isUsable($0) }) {
      throw .invalidSkillName(path: path, name: bad)
    }
  }
}
