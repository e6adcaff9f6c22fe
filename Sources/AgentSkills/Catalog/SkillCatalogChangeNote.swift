import ModelSession

/// The notes for a catalog whose skills changed between two generations of
/// one conversation (a library reloaded after its files changed, say).
///
/// A changed catalog line rewrites the instructions, and a skill added or
/// removed also changes the activation tool's enum: each is a prompt-cache
/// miss from there on, so each gets its note (`instructionsChanged`, and
/// `toolsChanged` when the names changed), naming the skills.
enum SkillCatalogChangeNote {
  /// The notes for a catalog that went from `previous` to `current` (name to description).
  static func notes(from previous: [String: String], to current: [String: String]) -> [GenerationNote] {
    let added = current.keys.filter { previous[$0] == nil }.sorted()
    let removed = previous.keys.filter { current[$0] == nil }.sorted()
    let edited = current.keys.filter { previous[$0] != nil && previous[$0] != current[$0] }.sorted()
    var parts: [String] = []
    if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
    if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
    if !edited.isEmpty { parts.append("description changed for \(edited.joined(separator: ", "))") }
    guard !parts.isEmpty else { return [] }
    let summary = parts.joined(separator: "; ")
    var notes = [
      GenerationNote(
        source: "skills", kind: .instructionsChanged,
        message:
          "skill catalog \(summary): the instructions were rewritten, so a prompt cache is invalidated "
          + "from the instructions on")
    ]
    if !added.isEmpty || !removed.isEmpty {
      notes.append(
        GenerationNote(
          source: "skills", kind: .toolsChanged,
          message: "skill catalog \(summary): the activation tool's list of skills changed"))
    }
    return notes
  }
}
