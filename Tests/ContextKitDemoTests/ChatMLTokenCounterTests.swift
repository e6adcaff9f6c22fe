import ContextKitDemo
import ModelSession
import Testing

@Suite("ChatML token counter roles", .timeLimit(.minutes(10))) struct ChatMLTokenCounterTests {
  @Test func `each entry is framed as the role a server's request gives it`() {
    func text(_ content: String) -> Transcript.Segment {
      .text(Transcript.TextSegment(id: "s-\(content)", content: content))
    }
    let entries: [(Transcript.Entry, String)] = [
      (
        .instructions(Transcript.Instructions(id: "i", segments: [text("be brief")], toolDefinitions: [])),
        "system"
      ),
      (.prompt(Transcript.Prompt(id: "p", segments: [text("weather?")])), "user"),
      (.reasoning(Transcript.Reasoning(id: "r", segments: [text("thinking")])), "assistant"),
      (.response(Transcript.Response(id: "a", assetIDs: [], segments: [text("sunny")])), "assistant"),
      (
        .toolCalls(
          Transcript.ToolCalls(
            id: "t",
            [
              Transcript.ToolCall(
                id: "c", toolName: "weather", arguments: GeneratedContent(properties: ["city": "Oslo"]))
            ])),
        "assistant"
      ),
      (.toolOutput(Transcript.ToolOutput(id: "c", toolName: "weather", segments: [text("21°C")])), "tool"),
    ]
    for (entry, role) in entries {
      #expect(ChatMLTokenCounter.role(of: entry) == role)
    }
    #expect(
      ChatMLTokenCounter.opening("tool") + ChatMLTokenCounter.closing == "<|im_start|>tool\n<|im_end|>\n")
  }
}
