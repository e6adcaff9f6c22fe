/// Runs the tool calls of one generation, concurrently, and answers each with
/// a tool output in call order.
///
/// A call the model got wrong (no such tool, arguments that are not JSON or do
/// not follow the tool's schema) is answered with an output that says what was
/// wrong, so the model can correct itself (for no such tool: `Error: there is
/// no tool named "x". Available tools: a, b.`, the session's tool names
/// sorted, or `none`). A tool that throws fails the turn
/// with `LanguageModelSession.ToolCallError`.
struct ToolRunner {
  var toolsByName: [String: any Tool]

  func run(_ calls: [GenerationAssembler.ToolCallDraft]) async throws -> [Transcript.ToolOutput] {
    try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
      for (index, call) in calls.enumerated() {
        let tool = toolsByName[call.name]
        let available = toolsByName.keys.sorted()
        group.addTask {
          (index, try await Self.answer(call, tool: tool, availableTools: available))
        }
      }
      var outputs = [Transcript.ToolOutput?](repeating: nil, count: calls.count)
      for try await (index, output) in group {
        outputs[index] = output
      }
      return outputs.compactMap { $0 }
    }
  }

  private static func answer(
    _ call: GenerationAssembler.ToolCallDraft, tool: (any Tool)?, availableTools: [String]
  ) async throws -> Transcript.ToolOutput {
    func correction(_ message: String, problem: String) -> Transcript.ToolOutput {
      Transcript.ToolOutput(
        id: call.id, toolName: call.name, segments: [.text(Transcript.TextSegment(content: message))],
        metadata: ["error": GeneratedContent(kind: .string(problem))])
    }
    guard let tool else {
      let names = availableTools.isEmpty ? "none" : availableTools.joined(separator: ", ")
      return correction(
        "Error: there is no tool named \"\(call.name)\". Available tools: \(names).", problem: "unknownTool")
    }
    let arguments: GeneratedContent
    do {
      let text = call.arguments.allSatisfy(\.isWhitespace) ? "{}" : call.arguments
      arguments = try GeneratedContent(json: text)
    } catch {
      return correction(
        "Error: the arguments for \"\(call.name)\" are not valid JSON (\(error)). Call the tool again with a JSON object.",
        problem: "invalidArguments")
    }
    do {
      try tool.parameters.validate(arguments)
    } catch {
      return correction(
        "Error: the arguments for \"\(call.name)\" do not match its schema: \(error). Call the tool again with corrected arguments.",
        problem: "invalidArguments")
    }
    do {
      let output = try await invoke(tool, arguments: arguments, callID: call.id)
      var metadata: [String: GeneratedContent] = [:]
      if let retained = (output as? any RetainableToolOutput)?.retainedContext {
        metadata[RetainedContext.metadataKey] = GeneratedContent(kind: .string(retained.key))
      }
      return Transcript.ToolOutput(
        id: call.id, toolName: call.name, segments: output.promptRepresentation.segments, metadata: metadata)
    } catch let error as GeneratedContentError {
      return correction(
        "Error: the arguments for \"\(call.name)\" could not be read: \(error). Call the tool again with corrected arguments.",
        problem: "invalidArguments")
    }
  }

  /// Decodes the arguments as the tool's type and calls it. Decoding errors
  /// are rethrown as `GeneratedContentError`; errors from the tool itself as
  /// `ToolCallError`.
  private static func invoke<T: Tool>(
    _ tool: T, arguments: GeneratedContent, callID: String
  ) async throws
    -> any PromptRepresentable
  {
    let decoded = try T.Arguments(arguments)
    do {
      return try await tool.call(arguments: decoded)
    } catch {
      throw LanguageModelSession.ToolCallError(tool: tool, callID: callID, underlyingError: error)
    }
  }
}
