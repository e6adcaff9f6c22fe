import ModelSession

/// A call of `activate_skill` and its output `body`, marked as retained context under
/// `key`, so that a cut before it puts a copy back.
func retainedDelivery(
  callsID: String, callID: String, key: String = "skill:style", body: Transcript.Segment
) -> [Transcript.Entry] {
  var metadata: [String: GeneratedContent] = [:]
  metadata[RetainedContext.metadataKey] = GeneratedContent(kind: .string(key))
  let call = Transcript.ToolCall(
    id: callID, toolName: "activate_skill",
    arguments: GeneratedContent(kind: .structure(properties: [:], orderedKeys: [])))
  return [
    .toolCalls(Transcript.ToolCalls(id: callsID, [call])),
    .toolOutput(
      Transcript.ToolOutput(id: callID, toolName: "activate_skill", segments: [body], metadata: metadata)),
  ]
}
