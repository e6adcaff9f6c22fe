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
    let names = [GenerationNote.Field.added: added, .removed: removed, .edited: edited].filter {
      !$0.value.isEmpty
    }
    guard !names.isEmpty else { return [] }
    var notes = [GenerationNote(source: "skills", kind: .instructionsChanged, message: "", names: names)]
    if !added.isEmpty || !removed.isEmpty {
      notes.append(
        GenerationNote(
          source: "skills", kind: .toolsChanged, message: "", names: names))
    }
    return notes.map { note in
      var note = note
      note.message = message(for: note)
      return note
    }
  }

  /// The message of one of the notes above, from its fields (both notes
  /// carry the same names: the skills added, removed and edited).
  static func message(for note: GenerationNote) -> String {
    var parts: [String] = []
    if !note.names(.added).isEmpty { parts.append("added \(note.names(.added).joined(separator: ", "))") }
    if !note.names(.removed).isEmpty {
      parts.append("removed \(note.names(.removed).joined(separator: ", "))")
    }
    if !note.names(.edited).isEmpty {
      parts.append("description changed for \(note.names(.edited).joined(separator: ", "))")
    }
    let summary = "skill catalog " + parts.joined(separator: "; ")
    return note.kind == .toolsChanged
      ? "\(summary): the activation tool's list of skills changed"
      : "\(summary): the instructions were rewritten, so a prompt cache is invalidated from the instructions on"
  }
}
