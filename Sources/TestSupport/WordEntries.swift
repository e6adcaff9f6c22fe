import ModelSession

// Entries with fresh ids and word-counted texts, for tests that build histories
// by the dozen and count them by hand.

/// `count` words: `w0 w1 …`, with a tag so that different texts differ.
public func words(_ count: Int, tag: String = "w") -> String {
  (0..<count).map { "\(tag)\($0)" }.joined(separator: " ")
}

/// A text segment with a fresh id.
public func textSegment(_ text: String) -> Transcript.Segment {
  .text(Transcript.TextSegment(content: text))
}

/// A prompt of one text segment, with a fresh id.
public func promptEntry(_ text: String) -> Transcript.Entry {
  .prompt(Transcript.Prompt(segments: [textSegment(text)]))
}

/// A response of one text segment, with a fresh id.
public func responseEntry(_ text: String) -> Transcript.Entry {
  .response(Transcript.Response(assetIDs: [], segments: [textSegment(text)]))
}

/// Instructions of one text segment and the given tools, with a fresh id.
public func instructionsEntry(_ text: String, tools: [Transcript.ToolDefinition] = []) -> Transcript.Entry {
  .instructions(Transcript.Instructions(segments: [textSegment(text)], toolDefinitions: tools))
}

/// A tool definition whose parameters are a string.
public func toolDefinition(_ name: String, description: String = "A tool.") -> Transcript.ToolDefinition {
  Transcript.ToolDefinition(name: name, description: description, parameters: String.generationSchema)
}
