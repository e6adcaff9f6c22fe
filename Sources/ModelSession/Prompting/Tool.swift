/// A function the model can call.
///
/// ```swift
/// struct WeatherTool: Tool {
///   let description = "Gets the current temperature in a city."
///   let parameters: GenerationSchema
///
///   init() throws {
///     parameters = try GenerationSchema(
///       root: DynamicGenerationSchema(
///         name: "WeatherArguments", properties: [.init(name: "city", schema: DynamicGenerationSchema(type: String.self))]),
///       dependencies: [])
///   }
///
///   func call(arguments: GeneratedContent) async throws -> String {
///     let city = try arguments.value(String.self, forProperty: "city")
///     return "It is 21°C in \(city)."
///   }
/// }
/// ```
public protocol Tool<Arguments, Output>: Sendable {
  /// What the model generates as the call's arguments.
  associatedtype Arguments: ConvertibleFromGeneratedContent
  /// What the call returns to the model.
  associatedtype Output: PromptRepresentable

  /// The tool's name, unique among the tools of a session. Defaults to the type's name.
  var name: String { get }
  /// What the tool does, in words the model reads to decide when to call it.
  var description: String { get }
  /// The schema of the arguments. Defaults to `Arguments.generationSchema`
  /// when `Arguments` is `Generable`.
  var parameters: GenerationSchema { get }
  /// Kept for source compatibility with Apple's `Tool`; ContextKit does not
  /// read it. Every tool's definition, schema included, is always listed in
  /// the instructions entry (`Transcript.Instructions.toolDefinitions`) and
  /// sent to the provider, which passes it to the model natively.
  var includesSchemaInInstructions: Bool { get }

  /// Runs the tool.
  func call(arguments: Arguments) async throws -> Output
}

extension Tool {
  /// The type's name.
  public var name: String { String(describing: Self.self) }

  /// `true` (not read; see the requirement).
  public var includesSchemaInInstructions: Bool { true }
}
