/// Instructions and tools computed when the session evaluates its profile,
/// such as a catalog of skills whose content depends on which are active.
///
/// ```swift
/// struct TodayInstructions: DynamicInstructions {
///   var body: ProfileContent {
///     get async throws { "Today is \(Date.now.formatted(date: .complete, time: .omitted))." }
///   }
/// }
/// ```
public protocol DynamicInstructions: Sendable {
  /// The instructions and tools, evaluated before each generation.
  @ProfileContentBuilder var body: ProfileContent { get async throws }

  /// Adds the content to `resolution`. The default resolves `body`; implement
  /// it to add notes to the generation record as well.
  func resolve(into resolution: inout ProfileResolution) async throws
}

extension DynamicInstructions {
  /// Resolves `body`.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await body.resolve(into: &resolution)
  }
}
