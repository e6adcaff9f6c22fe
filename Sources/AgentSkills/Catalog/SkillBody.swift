import ModelSession

/// The body of an instructions skill built with ``SkillBodyBuilder``: the
/// instructions it adds while active and the tools that come with them.
public struct SkillBody: Sendable {
  /// The instructions, in the order written.
  public var instructions: Instructions
  /// The tools, in the order written.
  public var tools: [any Tool]

  /// Creates a body.
  public init(instructions: Instructions = Instructions(segments: []), tools: [any Tool] = []) {
    self.instructions = instructions
    self.tools = tools
  }
}

/// Builds a ``SkillBody`` from instructions (strings, `Instructions`, other
/// representable values) and tools, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum SkillBodyBuilder {
  /// Joins the parts in order.
  public static func buildBlock(_ components: SkillBody...) -> SkillBody { joined(components) }

  /// Instructions.
  public static func buildExpression(_ expression: some InstructionsRepresentable) -> SkillBody {
    SkillBody(instructions: expression.instructionsRepresentation)
  }

  /// A tool.
  public static func buildExpression(_ expression: some Tool) -> SkillBody {
    SkillBody(tools: [expression])
  }

  /// Several tools.
  public static func buildExpression(_ expression: [any Tool]) -> SkillBody {
    SkillBody(tools: expression)
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: SkillBody?) -> SkillBody { component ?? SkillBody() }

  /// The first branch of an `if`/`else`.
  public static func buildEither(first component: SkillBody) -> SkillBody { component }

  /// The second branch of an `if`/`else`.
  public static func buildEither(second component: SkillBody) -> SkillBody { component }

  /// A `for` loop.
  public static func buildArray(_ components: [SkillBody]) -> SkillBody { joined(components) }

  /// An availability check.
  public static func buildLimitedAvailability(_ component: SkillBody) -> SkillBody { component }

  private static func joined(_ components: [SkillBody]) -> SkillBody {
    SkillBody(
      instructions: Instructions(segments: components.flatMap(\.instructions.segments)),
      tools: components.flatMap(\.tools))
  }
}
