import ModelSession

/// Finds why a request no longer extends what the previous generation left
/// in the cache, by comparing the two generations' records part by part in
/// the order a server reads them, then the history stage by stage.
struct CauseAttribution {
  let previous: GenerationRecord
  let current: GenerationRecord

  /// The cause of a divergence between the two generations.
  func cause() -> CacheImpactCause {
    if let tools = toolsCause() { return tools }
    let previousRequest = PromptRequest(record: previous)
    let currentRequest = PromptRequest(record: current)
    let previousSettings = PromptRenderer.settingsText(of: previousRequest.contextOptions)
    let currentSettings = PromptRenderer.settingsText(of: currentRequest.contextOptions)
    if previousSettings != currentSettings {
      return CacheImpactCause(
        kind: .settingsChanged,
        detail: "the settings went from \(previousSettings ?? "none") to \(currentSettings ?? "none")")
    }
    if schemaText(previousRequest) != schemaText(currentRequest) {
      return CacheImpactCause(
        kind: .responseSchemaChanged,
        detail:
          "the response schema went from \(previous.schema?.name ?? "none") to \(current.schema?.name ?? "none")"
      )
    }
    if instructionsText(previous.sentTranscript) != instructionsText(current.sentTranscript) {
      let note = current.notes.first { $0.kind == .instructionsChanged }
      return CacheImpactCause(
        kind: .instructionsChanged, source: note?.source,
        detail: note.flatMap(NoteCauseDetail.instructions) ?? "the instructions were rewritten")
    }
    return historyCause()
  }

  private func toolsCause() -> CacheImpactCause? {
    let before = previous.toolDefinitions
    let after = current.toolDefinitions
    guard before != after else { return nil }
    let beforeNames = before.map(\.name)
    let afterNames = after.map(\.name)
    let added = afterNames.filter { !beforeNames.contains($0) }
    let removed = beforeNames.filter { !afterNames.contains($0) }
    let changed = after.filter { definition in
      before.contains { $0.name == definition.name && $0 != definition }
    }.map(\.name)
    var parts: [String] = []
    if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
    if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
    if !changed.isEmpty { parts.append("changed the definition of \(changed.joined(separator: ", "))") }
    if parts.isEmpty { parts.append("reordered the tools") }
    let note = current.notes.first { $0.kind == .toolsChanged }
    return CacheImpactCause(
      kind: .toolsChanged, source: note?.source, detail: "the tool list " + parts.joined(separator: "; "))
  }

  /// The first stage (stored history first) whose history no longer extends
  /// the same stage's history of the previous generation plus its output.
  private func historyCause() -> CacheImpactCause {
    let output = previous.output
    // A modifier that committed its history (summarizeHistory) made one of the previous stages the stored history.
    let storedGrew =
      extends(current.storedHistory, previous.storedHistory, output)
      || previous.stages.contains { extends(current.storedHistory, $0.transcript, output) }
    if !storedGrew {
      // A record without stages (one a modifier made) names the modifiers that ran before it by their notes.
      if current.stages.isEmpty, let note = current.notes.last(where: { $0.kind == .historyRewritten }) {
        return CacheImpactCause(
          kind: .historyRewritten, source: note.source,
          detail: NoteCauseDetail.history(note)
            ?? "\(note.source) rewrote history that the previous generation sent")
      }
      return CacheImpactCause(
        kind: .storedHistoryChanged,
        detail: "the stored history is not the previous one plus new entries "
          + "(a failed turn rolled back, or the transcript was replaced)")
    }
    for (index, stage) in current.stages.enumerated() {
      guard index < previous.stages.count, previous.stages[index].name == stage.name else {
        return CacheImpactCause(
          kind: .historyRewritten, source: stage.name, detail: "the modifiers changed from \(stage.name) on")
      }
      if !extends(stage.transcript, previous.stages[index].transcript, output) {
        let note = current.notes.first { $0.source == stage.name && $0.kind == .historyRewritten }
        return CacheImpactCause(
          kind: .historyRewritten, source: stage.name,
          detail: note.flatMap(NoteCauseDetail.history)
            ?? "\(stage.name) rewrote history that the previous generation sent")
      }
    }
    return CacheImpactCause(
      kind: .historyRewritten, detail: "the history sent does not extend the previous request and its output")
  }

  /// Whether `history`'s conversation starts with `earlier`'s followed by `output` (by rendered text).
  private func extends(_ history: Transcript, _ earlier: Transcript, _ output: [Transcript.Entry]) -> Bool {
    let entries = history.entries.filter { !$0.isInstructions }
    let expected = earlier.entries.filter { !$0.isInstructions } + output
    guard entries.count >= expected.count else { return false }
    return zip(entries, expected).allSatisfy { PromptRenderer.text(of: $0) == PromptRenderer.text(of: $1) }
  }

  private func schemaText(_ request: PromptRequest) -> String? {
    guard let schema = request.schema, request.contextOptions.includeSchemaInPrompt else { return nil }
    return PromptRenderer.text(of: schema)
  }

  private func instructionsText(_ transcript: Transcript) -> String? {
    guard case .instructions(let instructions) = transcript.first else { return nil }
    return PromptRenderer.text(of: instructions)
  }
}

extension Transcript.Entry {
  var isInstructions: Bool {
    if case .instructions = self { true } else { false }
  }
}
