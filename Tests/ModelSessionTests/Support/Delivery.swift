import ModelSession

/// A prompt, then a call of `load` and its output of `bytes` bytes (retained
/// under `key` when given); also used by ReattachmentNoteTests.
func delivery(_ id: String, key: String?, bytes: Int) -> [Transcript.Entry] {
  var metadata: [String: GeneratedContent] = [:]
  if let key { metadata[RetainedContext.metadataKey] = GeneratedContent(kind: .string(key)) }
  let call = Transcript.ToolCall(
    id: id, toolName: "load", arguments: GeneratedContent(kind: .structure(properties: [:], orderedKeys: [])))
  return [
    .prompt(Transcript.Prompt(id: "p-\(id)", segments: [.text(.init(id: "s-p-\(id)", content: "go"))])),
    .toolCalls(Transcript.ToolCalls(id: "c-\(id)", [call])),
    .toolOutput(
      Transcript.ToolOutput(
        id: id, toolName: "load",
        segments: [.text(.init(id: "s-\(id)", content: String(repeating: "x", count: bytes)))],
        metadata: metadata)),
  ]
}
