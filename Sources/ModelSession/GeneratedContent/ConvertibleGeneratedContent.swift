import Foundation

/// A type that can describe itself as `GeneratedContent`.
///
/// Conforming types can be used as tool outputs, metadata values and prompts.
public protocol ConvertibleToGeneratedContent {
  /// The value as generated content.
  var generatedContent: GeneratedContent { get }
}

/// A type that can be built from `GeneratedContent`, such as tool arguments or
/// the result of guided generation.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
  /// Reads a value from generated content, throwing `GeneratedContentError`
  /// when the content has the wrong shape.
  init(_ content: GeneratedContent) throws
}

extension GeneratedContent: InstructionsRepresentable, PromptRepresentable {
  /// The content as a structured prompt segment.
  public var promptRepresentation: Prompt { Prompt(segments: [.structure(.init(content: self))]) }
  /// The content as a structured instructions segment.
  public var instructionsRepresentation: Instructions {
    Instructions(segments: [.structure(.init(content: self))])
  }
}

extension GeneratedContent: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The content itself.
  public var generatedContent: GeneratedContent { self }

  /// Copies the content.
  public init(_ content: GeneratedContent) throws {
    self = content
  }
}

extension GeneratedContent {
  /// Reads the whole value as `type`.
  ///
  /// ```swift
  /// let names = try content.value([String].self)
  /// ```
  public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self) throws -> Value {
    try Value(self)
  }

  /// Reads the property `name` of an object as `type`.
  ///
  /// A missing property reads as `nil` when `type` is optional, and throws otherwise.
  public func value<Value: ConvertibleFromGeneratedContent>(
    _ type: Value.Type = Value.self, forProperty name: String
  ) throws -> Value {
    guard case .structure = storage else {
      throw GeneratedContentError(.typeMismatch(expected: "object", found: typeName))
    }
    let property = self[property: name] ?? GeneratedContent(storage: .null)
    do {
      return try Value(property)
    } catch var error as GeneratedContentError {
      if self[property: name] == nil, case .typeMismatch = error.reason {
        error.reason = .missingProperty(name)
        throw error
      }
      error.path = "$.\(name)" + error.path.dropFirst()
      throw error
    }
  }
}

extension String: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The string as content.
  public var generatedContent: GeneratedContent { GeneratedContent(storage: .string(self)) }

  /// Reads a string.
  public init(_ content: GeneratedContent) throws {
    guard case .string(let value) = content.storage else {
      throw GeneratedContentError(.typeMismatch(expected: "string", found: content.typeName))
    }
    self = value
  }
}

extension Bool: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The boolean as content.
  public var generatedContent: GeneratedContent { GeneratedContent(storage: .bool(self)) }

  /// Reads a boolean.
  public init(_ content: GeneratedContent) throws {
    guard case .bool(let value) = content.storage else {
      throw GeneratedContentError(.typeMismatch(expected: "boolean", found: content.typeName))
    }
    self = value
  }
}

extension Double: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The number as content.
  public var generatedContent: GeneratedContent { GeneratedContent(storage: .number(self)) }

  /// Reads a number.
  public init(_ content: GeneratedContent) throws {
    guard case .number(let value) = content.storage else {
      throw GeneratedContentError(.typeMismatch(expected: "number", found: content.typeName))
    }
    self = value
  }
}

extension Int: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The integer as content.
  public var generatedContent: GeneratedContent { GeneratedContent(storage: .number(Double(self))) }

  /// Reads a whole number that fits in `Int`.
  public init(_ content: GeneratedContent) throws {
    let number = try Double(content)
    guard number.rounded() == number, let value = Int(exactly: number) else {
      throw GeneratedContentError(.numberOutOfRange(number, type: "Int"))
    }
    self = value
  }
}

extension Decimal: ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
  /// The decimal as content (a `Double` number).
  public var generatedContent: GeneratedContent {
    GeneratedContent(storage: .number(NSDecimalNumber(decimal: self).doubleValue))
  }

  /// Reads a number as a decimal, through its shortest textual form so that
  /// `0.1` reads as exactly `0.1`.
  public init(_ content: GeneratedContent) throws {
    let number = try Double(content)
    guard number.isFinite, let value = Decimal(string: "\(number)") else {
      throw GeneratedContentError(.numberOutOfRange(number, type: "Decimal"))
    }
    self = value
  }
}

extension Array: ConvertibleToGeneratedContent
where Element: ConvertibleToGeneratedContent {
  /// The elements as a content array.
  public var generatedContent: GeneratedContent { GeneratedContent(storage: .array(map(\.generatedContent))) }
}

extension Array: ConvertibleFromGeneratedContent
where Element: ConvertibleFromGeneratedContent {
  /// Reads an array whose every element reads as `Element`.
  public init(_ content: GeneratedContent) throws {
    guard case .array(let elements) = content.storage else {
      throw GeneratedContentError(.typeMismatch(expected: "array", found: content.typeName))
    }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do {
        result.append(try Element(element))
      } catch var error as GeneratedContentError {
        error.path = "$[\(index)]" + error.path.dropFirst()
        throw error
      }
    }
    self = result
  }
}

extension Optional: ConvertibleToGeneratedContent
where Wrapped: ConvertibleToGeneratedContent {
  /// The wrapped value as content, or `null`.
  public var generatedContent: GeneratedContent {
    switch self {
    case .some(let value): value.generatedContent
    case .none: GeneratedContent(storage: .null)
    }
  }
}

extension Optional: ConvertibleFromGeneratedContent
where Wrapped: ConvertibleFromGeneratedContent {
  /// Reads `null` as `nil`, anything else as `Wrapped`.
  public init(_ content: GeneratedContent) throws {
    if case .null = content.storage {
      self = .none
    } else {
      self = .some(try Wrapped(content))
    }
  }
}
