import Foundation
import ModelSession
import Synchronization

/// A tool that reports the weather of a city, for tests: `{"city": string}`.
public struct WeatherTool: Tool {
  /// `weather`.
  public let name = "weather"
  /// What it does.
  public let description = "Gets the current temperature in a city."
  /// The cities it was called with, in call order of completion.
  public let calls = CallLog()

  /// Creates the tool.
  public init() {}

  /// `{"city": string}`.
  public var parameters: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "WeatherArguments",
        properties: [
          .init(name: "city", description: "The city", schema: DynamicGenerationSchema(type: String.self))
        ]),
      dependencies: [])) ?? String.generationSchema
  }

  /// Answers with a fixed temperature.
  public func call(arguments: GeneratedContent) async throws -> String {
    let city = try arguments.value(String.self, forProperty: "city")
    calls.append(city)
    return "It is 21°C in \(city)."
  }
}

/// A tool that fails every call, for tests.
public struct FailingTool: Tool {
  /// The error it throws.
  public struct Failure: Error, Equatable {
    /// Creates the error.
    public init() {}
  }

  /// `explode`.
  public let name = "explode"
  /// What it does.
  public let description = "Always fails."

  /// Creates the tool.
  public init() {}

  /// Any object.
  public var parameters: GenerationSchema {
    (try? GenerationSchema(root: DynamicGenerationSchema(name: "Empty", properties: []), dependencies: []))
      ?? String.generationSchema
  }

  /// Throws `Failure`.
  public func call(arguments: GeneratedContent) async throws -> String {
    throw Failure()
  }
}

/// A thread-safe list of strings, for tools that record their calls.
public final class CallLog: Sendable {
  private let values = Mutex<[String]>([])

  /// Creates an empty log.
  public init() {}

  /// Adds a value.
  public func append(_ value: String) {
    values.withLock { $0.append(value) }
  }

  /// The values so far.
  public var all: [String] { values.withLock { $0 } }
}
