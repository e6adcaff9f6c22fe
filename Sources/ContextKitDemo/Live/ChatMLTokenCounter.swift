import ChatCompletions
import ModelSession

/// Token counts as a server with a ChatML chat template sees them (SmolLM2,
/// Qwen and others: `<|im_start|>role\n … <|im_end|>\n` around each message,
/// then the generation prompt `<|im_start|>assistant\n`), from the server's
/// own tokenizer.
///
/// ``ServerTokenCounter`` counts each entry's text exactly but its template
/// tokens with one fixed framing per entry; the template's real framing
/// depends on the role (SmolLM2 spells `assistant` with two tokens, so an
/// answer costs 6 template tokens where a prompt costs 5), and every request
/// ends with the generation prompt. This counter asks the server once for the
/// tokens of each role's framing and of the generation prompt, and replaces
/// the fixed framing with them.
///
/// ```swift
/// let counter = try await ChatMLTokenCounter(server: ServerTokenCounter(model: model))
/// ```
package struct ChatMLTokenCounter: TokenCounter, TextTokenizer {
  /// The counter of the entries' text.
  package let server: ServerTokenCounter
  /// The template's tokens around one message, by role (`system`, `user`, `assistant`, `tool`).
  package let framing: [String: Int]
  /// The tokens of the generation prompt that ends every request.
  package let generationPromptTokenCount: Int

  /// Counts the template's framing with the server's tokenizer.
  package init(server: ServerTokenCounter) async throws {
    self.server = server
    var framing: [String: Int] = [:]
    for role in ["system", "user", "assistant", "tool"] {
      framing[role] = try await server.tokenCount(of: Self.opening(role) + Self.closing)
    }
    self.framing = framing
    generationPromptTokenCount = try await server.tokenCount(of: Self.opening("assistant"))
  }

  /// `<|im_start|>role\n`.
  package static func opening(_ role: String) -> String { "<|im_start|>" + role + "\n" }
  /// `<|im_end|>\n`.
  package static let closing = "<|im_end|>\n"

  /// The chat role a server's request gives the entry.
  package static func role(of entry: Transcript.Entry) -> String {
    switch entry {
    case .instructions: "system"
    case .prompt: "user"
    case .response, .reasoning, .toolCalls: "assistant"
    case .toolOutput: "tool"
    }
  }

  /// The template's tokens around `entry` in place of the server counter's fixed framing.
  private func correction(for entry: Transcript.Entry) -> Int {
    (framing[Self.role(of: entry)] ?? server.fallback.framingTokenCount) - server.fallback.framingTokenCount
  }

  /// The server's tokens of `text`.
  package func tokens(of text: String) async throws -> [Int]? {
    try await server.tokens(of: text)
  }

  package func tokenCount(of segment: Transcript.Segment) async throws -> Int {
    try await server.tokenCount(of: segment)
  }

  package func tokenCount(of entry: Transcript.Entry) async throws -> Int {
    try await server.tokenCount(of: entry) + correction(for: entry)
  }

  package func tokenCount(of toolDefinition: Transcript.ToolDefinition) async throws -> Int {
    try await server.tokenCount(of: toolDefinition)
  }

  /// The request's count: the server counter's, with each entry's framing
  /// corrected, plus the generation prompt.
  package func tokenCount(of request: LanguageModelExecutorGenerationRequest) async throws -> Int {
    let corrections = request.transcript.entries.reduce(0) { $0 + correction(for: $1) }
    return try await server.tokenCount(of: request) + corrections + generationPromptTokenCount
  }

  package func tokenCounts(of entries: [Transcript.Entry]) async throws -> [Int] {
    try await zip(server.tokenCounts(of: entries), entries).map { $0 + correction(for: $1) }
  }
}
