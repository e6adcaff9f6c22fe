/// The content of a profile or of dynamic instructions: instructions, tools
/// and nested dynamic instructions, in order. Built with `ProfileContentBuilder`.
public struct ProfileContent: Sendable {
  enum Component: Sendable {
    case instructions(Instructions)
    case tool(any Tool)
    case dynamic(any DynamicInstructions)
  }

  var components: [Component]

  init(components: [Component]) {
    self.components = components
  }

  /// Empty content.
  public init() {
    components = []
  }

  /// Adds the content to `resolution`, in order.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    for component in components {
      switch component {
      case .instructions(let instructions): resolution.append(instructions)
      case .tool(let tool): resolution.append(tool)
      case .dynamic(let dynamic): try await dynamic.resolve(into: &resolution)
      }
    }
  }
}

/// Builds profile content from instructions (or strings), tools and dynamic
/// instructions, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum ProfileContentBuilder {
  /// Joins the parts in order.
  public static func buildBlock(_ components: ProfileContent...) -> ProfileContent {
    ProfileContent(components: components.flatMap(\.components))
  }

  /// Instructions, or a string.
  public static func buildExpression(_ expression: some InstructionsRepresentable) -> ProfileContent {
    ProfileContent(components: [.instructions(expression.instructionsRepresentation)])
  }

  /// A tool.
  public static func buildExpression(_ expression: some Tool) -> ProfileContent {
    ProfileContent(components: [.tool(expression)])
  }

  /// A tool given as an existential.
  public static func buildExpression(_ expression: any Tool) -> ProfileContent {
    ProfileContent(components: [.tool(expression)])
  }

  /// Several tools.
  public static func buildExpression(_ expression: [any Tool]) -> ProfileContent {
    ProfileContent(components: expression.map { .tool($0) })
  }

  /// Dynamic instructions, such as `Skills`.
  public static func buildExpression(_ expression: some DynamicInstructions) -> ProfileContent {
    ProfileContent(components: [.dynamic(expression)])
  }

  /// Content built elsewhere.
  public static func buildExpression(_ expression: ProfileContent) -> ProfileContent {
    expression
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: ProfileContent?) -> ProfileContent {
    component ?? ProfileContent()
  }

  /// The first branch of an `if`/`else`.
  public static func buildEither(first component: ProfileContent) -> ProfileContent { component }

  /// The second branch of an `if`/`else`.
  public static func buildEither(second component: ProfileContent) -> ProfileContent { component }

  /// A `for` loop.
  public static func buildArray(_ components: [ProfileContent]) -> ProfileContent {
    ProfileContent(components: components.flatMap(\.components))
  }

  /// An availability check.
  public static func buildLimitedAvailability(_ component: ProfileContent) -> ProfileContent { component }
}
