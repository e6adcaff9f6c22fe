import ModelSession

/// The notes for instructions skills switched on or off between two
/// generations: an `instructionsChanged` note naming the skills activated and
/// deactivated (and, under `tools`, the tools those skills bring), and, when
/// they bring tools, a `toolsChanged` note naming the tools added and removed.
enum SkillInstructionsChangeNote {
  /// The notes for active instructions skills that went from `previous` to `current`.
  static func notes(from previous: Set<String>, to current: Set<String>, skills: [Skill]) -> [GenerationNote]
  {
    let activated = current.subtracting(previous).sorted()
    let deactivated = previous.subtracting(current).sorted()
    func tools(of names: [String]) -> [String] {
      skills.filter { names.contains($0.name) }.flatMap { skill -> [String] in
        guard case .instructions(_, _, let tools) = skill.content else { return [] }
        return tools.map(\.name)
      }
    }
    let added = tools(of: activated)
    let removed = tools(of: deactivated)
    let names: [GenerationNote.Field: [String]] = [
      .activated: activated, .deactivated: deactivated, .tools: added + removed,
    ].filter { !$0.value.isEmpty }
    var notes = [GenerationNote(source: "skills", kind: .instructionsChanged, message: "", names: names)]
    if !added.isEmpty || !removed.isEmpty {
      notes.append(
        GenerationNote(
          source: "skills", kind: .toolsChanged, message: "",
          names: [.activated: activated, .deactivated: deactivated, .added: added, .removed: removed].filter {
            !$0.value.isEmpty
          }))
    }
    return notes.map { note in
      var note = note
      note.message = message(for: note)
      return note
    }
  }

  /// The message of one of the notes above, from its fields.
  static func message(for note: GenerationNote) -> String {
    var parts: [String] = []
    if !note.names(.activated).isEmpty {
      parts.append("activated \(note.names(.activated).joined(separator: ", "))")
    }
    if !note.names(.deactivated).isEmpty {
      parts.append("deactivated \(note.names(.deactivated).joined(separator: ", "))")
    }
    let head = "instructions skill \(parts.joined(separator: "; ")): "
    guard note.kind == .instructionsChanged else {
      var tools: [String] = []
      if !note.names(.added).isEmpty { tools.append("added \(note.names(.added).joined(separator: ", "))") }
      if !note.names(.removed).isEmpty {
        tools.append("removed \(note.names(.removed).joined(separator: ", "))")
      }
      return head + "the tool list " + tools.joined(separator: "; ")
    }
    return head + "the instructions were rewritten, so a prompt cache is invalidated from the instructions on"
      + (note.names(.tools).isEmpty ? "" : "; the tool list changed too")
  }
}
