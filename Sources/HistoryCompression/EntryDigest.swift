import ModelSession

/// Feeds the content of transcript entries to a `Hasher`, so that a range of
/// history can be named by what it holds.
///
/// The digest covers each entry's kind, id and content (text, structured
/// content, attachments, tool calls and their arguments); a custom segment is
/// covered by its type and id. Hash values differ between processes, so
/// digests only name content within one process.
struct EntryDigest {
  private var hasher = Hasher()

  /// Adds a string (such as a configuration value).
  mutating func add(_ text: String) {
    hasher.combine(text)
  }

  /// Adds tool definitions.
  mutating func add(_ definitions: [Transcript.ToolDefinition]) {
    hasher.combine(definitions)
  }

  /// Adds an entry.
  mutating func add(_ entry: Transcript.Entry) {
    hasher.combine(entry.kindName)
    hasher.combine(entry.id)
    switch entry {
    case .toolCalls(let calls):
      hasher.combine(calls.calls.count)
      for call in calls.calls {
        hasher.combine(call.id)
        hasher.combine(call.toolName)
        hasher.combine(call.arguments)
      }
    case .toolOutput(let output):
      hasher.combine(output.toolName)
      add(output.segments)
    case .instructions(let instructions):
      add(instructions.segments)
      hasher.combine(instructions.toolDefinitions)
    case .prompt, .response, .reasoning:
      add(entry.segments)
    }
  }

  private mutating func add(_ segments: [Transcript.Segment]) {
    hasher.combine(segments.count)
    for segment in segments {
      switch segment {
      case .text(let text): hasher.combine(text.content)
      case .structure(let structure): hasher.combine(structure)
      case .attachment(let attachment): hasher.combine(attachment)
      case .custom(let custom):
        hasher.combine(type(of: custom).typeIdentifier)
        hasher.combine(custom.id)
      }
    }
  }

  /// The digest of everything added so far; adding more afterwards is allowed.
  var value: Int {
    let copy = hasher
    return copy.finalize()
  }
}
