import ModelSession

/// A history transform that, once the history holds `turn` prompts, keeps only the
/// instructions and the current turn: a crude cut that drops every delivered skill body.
func currentTurnOnly(fromTurn turn: Int) -> @Sendable (Transcript) async throws -> Transcript {
  { history in
    let prompts = history.indices.filter { if case .prompt = history[$0] { true } else { false } }
    guard prompts.count >= turn, let last = prompts.last else { return history }
    return Transcript(entries: history.prefix(1) + history[last...])
  }
}
