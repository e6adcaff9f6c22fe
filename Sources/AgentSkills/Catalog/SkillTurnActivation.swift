import Foundation
import ModelSession

/// The activations that do not come from the model's tool call, carried out
/// by the catalog before a generation in a session:
///
/// - the user's: at the first generation of a turn, each skill the prompt
///   names as `/name` (see `SlashCommandScanner`), when the catalog allows it.
///   An instructions skill becomes active, so its body joins the instructions
///   of this very generation; a prompt skill's body is delivered.
/// - the app's: a prompt skill the app marked active in `SkillActivations` is
///   delivered before the next generation and leaves the active set.
///
/// A prompt skill's body is delivered as the model's own activation delivers
/// it, so everything downstream treats them alike (retention across
/// compaction, `loadedSkillNames`, reading resources): the session appends a
/// call of the activation tool and its output, marked with who activated it
/// (``Skills/activationSourceMetadataKey``), after the turn's entries so far.
/// A body the model already sees is not sent again. If the turn that carried
/// an app's delivery fails, the delivery is sent again at the next generation.
struct SkillTurnActivation {
  /// Who asked for an activation.
  enum Source: String {
    case user, app
  }

  /// What the catalog adds to the generation.
  struct Outcome {
    var entries: [Transcript.Entry] = []
    var notes: [GenerationNote] = []
  }

  let skillsByName: [String: Skill]
  let toolName: String
  let slashCommands: Bool
  let activations: SkillActivations

  func run(for turn: ProfileTurn) async throws -> Outcome {
    var outcome = Outcome()
    var requested: [(skill: Skill, source: Source)] = []
    if slashCommands, turn.round == 0 {
      requested += try await userActivations(in: turn.prompt, notes: &outcome.notes)
    }
    for skill in try await appActivations(history: turn.history)
    where !requested.contains(where: { $0.skill.name == skill.name }) {
      requested.append((skill, .app))
    }
    guard !requested.isEmpty else { return outcome }

    let visible = Self.deliveredSkills(in: turn.history)
    var calls: [Transcript.ToolCall] = []
    var outputs: [Transcript.Entry] = []
    var deliveredByUser: [String] = []
    var deliveredByApp: [String] = []
    var alreadyLoaded: [String] = []
    for (skill, source) in requested {
      guard case .prompt(let body) = skill.content else { continue }
      if activations.isLoaded(skill.name), visible.contains(skill.name) {
        alreadyLoaded.append(skill.name)
        if source == .app { await activations.setPendingDelivery(nil, for: skill.name) }
        continue
      }
      let callID = "skill-\(source.rawValue)-\(UUID().uuidString)"
      calls.append(
        Transcript.ToolCall(
          id: callID, toolName: toolName, arguments: GeneratedContent(properties: ["skill": skill.name]),
          metadata: [Skills.activationSourceMetadataKey: GeneratedContent(source.rawValue)]))
      let reply = SkillToolReply.body(
        skill: skill.name, SkillResourceListing.promptDelivery(skill, body: body))
      outputs.append(
        .toolOutput(
          Transcript.ToolOutput(
            id: callID, toolName: toolName, segments: reply.promptRepresentation.segments,
            metadata: [
              RetainedContext.metadataKey: GeneratedContent(SkillToolReply.retainedKey(forSkill: skill.name))
            ])))
      if source == .app { await activations.setPendingDelivery(callID, for: skill.name) }
      try await skill.onActivate?()
      if source == .user { deliveredByUser.append(skill.name) } else { deliveredByApp.append(skill.name) }
    }
    if !calls.isEmpty {
      outcome.entries = [.toolCalls(Transcript.ToolCalls(calls))] + outputs
      outcome.notes.append(Self.note([.deliveredByUser: deliveredByUser, .deliveredByApp: deliveredByApp]))
    }
    if !alreadyLoaded.isEmpty {
      outcome.notes.append(Self.note([.alreadyVisible: alreadyLoaded]))
    }
    return outcome
  }

  /// The skills the prompt names: instructions skills are activated now,
  /// prompt skills returned for delivery; names that are no skill get a note.
  private func userActivations(
    in prompt: Transcript.Prompt, notes: inout [GenerationNote]
  ) async throws -> [(skill: Skill, source: Source)] {
    var names: [String] = []
    for segment in prompt.segments {
      guard case .text(let text) = segment else { continue }
      for name in SlashCommandScanner.names(in: text.content) where !names.contains(name) {
        names.append(name)
      }
    }
    var requested: [(skill: Skill, source: Source)] = []
    var unknown: [String] = []
    var activated: [String] = []
    for name in names {
      guard let skill = skillsByName[name] else {
        unknown.append(name)
        continue
      }
      guard skill.isInstructionsSkill else {
        requested.append((skill, .user))
        continue
      }
      if activations.activate(name) {
        try await skill.onActivate?()
        activated.append(name)
      }
    }
    if !activated.isEmpty {
      notes.append(Self.note([.activated: activated]))
    }
    if !unknown.isEmpty {
      notes.append(Self.note([.unknownCommands: unknown]))
    }
    return requested
  }

  /// The prompt skills to deliver for the app: those it marked active (which
  /// leave the active set now), and earlier deliveries whose turn failed
  /// before the transcript kept them.
  private func appActivations(history: Transcript) async throws -> [Skill] {
    var skills: [Skill] = []
    let pending = await activations.pendingDeliveries
    if !pending.isEmpty {
      var callIDs: Set<String> = []
      for entry in history {
        if case .toolCalls(let calls) = entry { callIDs.formUnion(calls.map(\.id)) }
      }
      for (name, callID) in pending.sorted(by: { $0.key < $1.key }) {
        if callIDs.contains(callID) {
          await activations.setPendingDelivery(nil, for: name)
        } else if let skill = skillsByName[name] {
          skills.append(skill)
        } else {
          await activations.setPendingDelivery(nil, for: name)
        }
      }
    }
    for name in activations.activeSkillNames {
      guard let skill = skillsByName[name], !skill.isInstructionsSkill else { continue }
      activations.deactivate(name)
      if !skills.contains(where: { $0.name == name }) { skills.append(skill) }
    }
    return skills
  }

  /// The prompt skills whose body a tool output of `history` carries.
  private static func deliveredSkills(in history: Transcript) -> Set<String> {
    var names: Set<String> = []
    for entry in history {
      guard let key = entry.retainedContextKey, let name = SkillToolReply.skillName(forRetainedKey: key)
      else {
        continue
      }
      names.insert(name)
    }
    return names
  }

  /// An `information` note with `names` (empty fields left out) and its message.
  private static func note(_ names: [GenerationNote.Field: [String]]) -> GenerationNote {
    var note = GenerationNote(
      source: "skills", kind: .information, message: "", names: names.filter { !$0.value.isEmpty })
    note.message = message(for: note)
    return note
  }

  /// The message of one of the notes above, from its fields.
  static func message(for note: GenerationNote) -> String {
    if !note.names(.activated).isEmpty {
      return "the prompt activated \(note.names(.activated).joined(separator: ", ")) (/name)"
    }
    if !note.names(.unknownCommands).isEmpty {
      let mentions = note.names(.unknownCommands).map { "/" + $0 }.joined(separator: ", ")
      return "the prompt mentions \(mentions), which no skill of the catalog is named; left as written"
    }
    if !note.names(.alreadyVisible).isEmpty {
      return "not delivered again, the model already sees the body of "
        + note.names(.alreadyVisible).joined(separator: ", ")
    }
    let delivered =
      note.names(.deliveredByUser).map { "\($0) (/\($0) in the prompt)" }
      + note.names(.deliveredByApp).map { "\($0) (by the app)" }
    return "delivered the body of \(delivered.joined(separator: ", ")) after the turn's entries, "
      + "as an activation tool call and its output (appended: the prompt cache is kept)"
  }
}
