/// Parses UTF-8 JSON text (RFC 8259) into `GeneratedContent`.
///
/// The parser is iterative: containers live on explicit stacks, never on the
/// call stack, so it runs safely on threads with small stacks (Swift
/// concurrency's cooperative threads) up to `maximumDepth` levels of nesting.
///
/// Values of open containers sit on one flat `values` stack (and object keys on
/// `keys`); closing a container moves its slice into a new array. Object keys
/// keep their first position; a repeated key takes its last value.
///
/// In partial mode the input may be a prefix of a document (a response that is
/// still streaming): reaching the end closes every open container and marks it
/// incomplete. See `GeneratedContent.init(partialJSON:)` for the exact rules.
struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  static let maximumDepth = 10_000

  /// An open array or object.
  struct OpenContainer {
    /// Whether this is an object (else an array).
    var isObject: Bool
    /// Where its values start on the `values` stack.
    var valuesStart: Int
    /// Where its keys start on the `keys` stack.
    var keysStart: Int
  }

  let bytes: UnsafeBufferPointer<UInt8>
  let isPartial: Bool
  var position = 0
  var containers: [OpenContainer] = []
  var values: [GeneratedContent] = []
  var keys: [String] = []
  /// Reused buffer for strings that contain escapes.
  var scratch: [UInt8] = []
  /// Where parsing starts (`afterValue` when resuming after a complete value).
  var initialStep = Step.expectingValue
  /// Whether to record a `checkpoint` to resume from when the input ends early.
  var isStreaming = false
  /// The state when the current step began; a step cut short is rolled back to it.
  var stepStart: StepStart?
  /// Where to resume when more input arrives (set when a streaming parse ends early).
  var checkpoint: Checkpoint?

  init(bytes: UnsafeBufferPointer<UInt8>, isPartial: Bool) {
    self.bytes = bytes
    self.isPartial = isPartial
  }

  /// Parses `text` as one JSON document.
  static func parse(_ text: String, isPartial: Bool) throws(JSONParsingError) -> GeneratedContent {
    var text = text
    let result = text.withUTF8 { buffer in
      var parser = JSONParser(bytes: buffer, isPartial: isPartial)
      return Result { () throws(JSONParsingError) in try parser.parseDocument() }
    }
    return try result.get()
  }

  /// Parses UTF-8 `bytes` as one complete JSON document.
  static func parse(bytes: [UInt8]) throws(JSONParsingError) -> GeneratedContent {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParsingError) -> GeneratedContent in
      var parser = JSONParser(bytes: buffer, isPartial: false)
      return try parser.parseDocument()
    }
  }

  func error(_ message: String, at offset: Int) -> JSONParsingError {
    JSONParsingError(message: message, offset: offset, in: bytes)
  }

  mutating func skipWhitespace() {
    while position < bytes.count, bytes[position].isJSONWhitespace {
      position += 1
    }
  }

  /// Where the parser is between two tokens.
  enum Step {
    /// A value must start next.
    case expectingValue
    /// A value was just completed; a separator, a closing bracket or the end follows.
    case afterValue
    /// The document is done.
    case finished(GeneratedContent)
  }

  /// Parses the whole input: one value surrounded by optional whitespace.
  mutating func parseDocument() throws(JSONParsingError) -> GeneratedContent {
    skipWhitespace()
    var step = initialStep
    while true {
      if isStreaming { recordStepStart(step) }
      switch step {
      case .expectingValue: step = try parseValue()
      case .afterValue: step = try parseAfterValue()
      case .finished(let content): return content
      }
    }
  }

  /// Reads a scalar (pushing it on `values`) or opens a container.
  mutating func parseValue() throws(JSONParsingError) -> Step {
    guard position < bytes.count else {
      if isPartial { return .finished(finishPartially(with: nil)) }
      throw error("unexpected end of input, expected a value", at: position)
    }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      try openContainer(isObject: true)
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        closeContainer()
        return .afterValue
      }
      guard try parseKey(afterComma: false) else { return .finished(finishPartially(with: nil)) }
      return .expectingValue
    case UInt8(ascii: "["):
      try openContainer(isObject: false)
      skipWhitespace()
      // Cut right after `[`: end this step, so a stream resumes where `]` may follow.
      if position >= bytes.count, isPartial { return .finished(finishPartially(with: nil)) }
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        closeContainer()
        return .afterValue
      }
      return .expectingValue
    case UInt8(ascii: "\""):
      let start = position
      let (string, isTerminated) = try parseString()
      guard isTerminated else {
        guard isPartial else { throw error("unterminated string", at: start) }
        return .finished(finishPartially(with: GeneratedContent(storage: .string(string), isComplete: false)))
      }
      values.append(GeneratedContent(storage: .string(string)))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let number = try parseNumber()
      guard number.isComplete else { return .finished(finishPartially(with: number.value)) }
      values.append(number.value ?? GeneratedContent(storage: .null))
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard let literal = try parseLiteral() else { return .finished(finishPartially(with: nil)) }
      values.append(literal)
    default:
      throw error("expected a value, found \(describeByte(at: position))", at: position)
    }
    return .afterValue
  }

  /// Reads what follows a complete value: a comma (and, in an object, the
  /// next key), a closing bracket, or the end of the document.
  mutating func parseAfterValue() throws(JSONParsingError) -> Step {
    skipWhitespace()
    guard let container = containers.last else {
      guard position >= bytes.count else {
        throw error("unexpected \(describeByte(at: position)) after the JSON value", at: position)
      }
      return .finished(values.removeLast())
    }
    guard position < bytes.count else {
      if isPartial { return .finished(finishPartially(with: nil)) }
      let expected = container.isObject ? "',' or '}' after object member" : "',' or ']' after array element"
      throw error("expected \(expected), found end of input", at: position)
    }
    let byte = bytes[position]
    if byte == UInt8(ascii: ",") {
      position += 1
      skipWhitespace()
      if container.isObject {
        guard try parseKey(afterComma: true) else { return .finished(finishPartially(with: nil)) }
      }
      return .expectingValue
    }
    if container.isObject {
      guard byte == UInt8(ascii: "}") else {
        throw error("expected ',' or '}' after object member", at: position)
      }
    } else {
      guard byte == UInt8(ascii: "]") else {
        throw error("expected ',' or ']' after array element", at: position)
      }
    }
    position += 1
    closeContainer()
    return .afterValue
  }

  /// Opens an array or object at `position`, which holds its bracket.
  mutating func openContainer(isObject: Bool) throws(JSONParsingError) {
    guard containers.count < Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels", at: position)
    }
    containers.append(
      OpenContainer(isObject: isObject, valuesStart: values.count, keysStart: keys.count))
    position += 1
  }

  /// Reads `"key"` and the `:` after it. Returns false when a partial input
  /// ends before the value starts.
  mutating func parseKey(afterComma: Bool) throws(JSONParsingError) -> Bool {
    guard position < bytes.count else {
      if isPartial { return false }
      throw error("unexpected end of input, expected an object key", at: position)
    }
    guard bytes[position] == UInt8(ascii: "\"") else {
      let expected = afterComma ? "a string key" : "a string key or '}'"
      throw error("expected \(expected), found \(describeByte(at: position))", at: position)
    }
    let start = position
    let (key, isTerminated) = try parseString()
    guard isTerminated else {
      if isPartial { return false }
      throw error("unterminated string", at: start)
    }
    keys.append(key)
    skipWhitespace()
    guard position < bytes.count else {
      if isPartial { return false }
      throw error("unexpected end of input, expected ':' after object key", at: position)
    }
    guard bytes[position] == UInt8(ascii: ":") else {
      throw error("expected ':' after object key", at: position)
    }
    position += 1
    skipWhitespace()
    return true
  }

  /// Closes the innermost container and pushes it as a value.
  mutating func closeContainer(isComplete: Bool = true) {
    guard let container = containers.popLast() else { return }
    let elements = Array(values[container.valuesStart...])
    values.removeSubrange(container.valuesStart...)
    if container.isObject {
      var objectKeys = Array(keys[container.keysStart...])
      keys.removeSubrange(container.keysStart...)
      // A partial object may hold a key whose value never started: drop it.
      if objectKeys.count > elements.count { objectKeys.removeLast(objectKeys.count - elements.count) }
      values.append(Self.makeObject(keys: objectKeys, values: elements, isComplete: isComplete))
    } else {
      values.append(GeneratedContent(storage: .array(elements), isComplete: isComplete))
    }
  }

  /// Builds an object; a repeated key keeps its first position and its last value.
  static func makeObject(
    keys: [String], values: [GeneratedContent], isComplete: Bool
  ) -> GeneratedContent {
    if !hasDuplicates(keys) {
      return GeneratedContent(storage: .structure(keys: keys, values: values), isComplete: isComplete)
    }
    var uniqueKeys: [String] = []
    var uniqueValues: [GeneratedContent] = []
    var positions: [String: Int] = [:]
    for (key, value) in zip(keys, values) {
      if let existing = positions[key] {
        uniqueValues[existing] = value
      } else {
        positions[key] = uniqueKeys.count
        uniqueKeys.append(key)
        uniqueValues.append(value)
      }
    }
    return GeneratedContent(
      storage: .structure(keys: uniqueKeys, values: uniqueValues), isComplete: isComplete)
  }

  static func hasDuplicates(_ keys: [String]) -> Bool {
    if keys.count < 2 { return false }
    if keys.count <= 16 {
      for index in 1..<keys.count where keys[..<index].contains(keys[index]) {
        return true
      }
      return false
    }
    return Set(keys).count != keys.count
  }

  /// Ends a partial parse: adds `pending` (a truncated scalar, if any) and
  /// closes every open container as incomplete.
  mutating func finishPartially(with pending: GeneratedContent?) -> GeneratedContent {
    if isStreaming { saveCheckpoint() }
    if let pending { values.append(pending) }
    while !containers.isEmpty {
      closeContainer(isComplete: false)
    }
    return values.popLast() ?? GeneratedContent(storage: .null, isComplete: false)
  }

  /// The byte at `offset` for an error message: `'x'`, or `end of input`.
  func describeByte(at offset: Int) -> String {
    guard offset < bytes.count else { return "end of input" }
    let byte = bytes[offset]
    if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0b1100_0000 == 0b1000_0000 { end += 1 }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    guard let scalar = text.unicodeScalars.first else { return "byte \(byte)" }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)"
  }
}
