/// How a skill reaches the model once it is activated, set in the front matter
/// as `metadata.activation`.
///
/// ```yaml
/// metadata:
///   activation: instructions
///   allows-deactivation: "true"
/// ```
public enum SkillActivationStyle: String, Sendable, Hashable, Codable, CaseIterable {
  /// The body is returned as the activation tool's output: the conversation's
  /// prefix is untouched, so the prompt cache keeps working. The default.
  case prompt
  /// The body joins the instructions from the next generation on. This rewrites
  /// the start of the prompt, so the generation after an activation is a cache miss.
  case instructions
}
