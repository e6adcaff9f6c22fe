/// Writes `GeneratedContent` as JSON text into a byte buffer.
///
/// Iterative like the parser: open containers are on an explicit stack, so any
/// value the parser accepts can be written on a small stack. The output is a
/// pure function of the value, which makes it byte-stable.
struct JSONWriter {
  /// An array or object whose members are being written.
  private struct OpenContainer {
    var keys: [String]
    var values: [GeneratedContent]
    var next: Int
    var isObject: Bool
  }

  /// The UTF-8 text written so far.
  private(set) var bytes: [UInt8] = []
  /// Whether to indent by two spaces per level, one member per line.
  let prettyPrinted: Bool
  private var containers: [OpenContainer] = []

  init(prettyPrinted: Bool) {
    self.prettyPrinted = prettyPrinted
    bytes.reserveCapacity(64)
  }

  /// Appends the JSON text of `root`.
  mutating func write(_ root: GeneratedContent) {
    writeValue(root)
    while let top = containers.indices.last {
      let index = containers[top].next
      let isObject = containers[top].isObject
      guard index < containers[top].values.count else {
        containers.removeLast()
        if prettyPrinted { writeNewline() }
        bytes.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        continue
      }
      containers[top].next = index + 1
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      if prettyPrinted { writeNewline() }
      if isObject {
        writeString(containers[top].keys[index])
        bytes.append(UInt8(ascii: ":"))
        if prettyPrinted { bytes.append(UInt8(ascii: " ")) }
      }
      writeValue(containers[top].values[index])
    }
  }

  /// Writes a scalar, or the opening bracket of a container (pushing it).
  private mutating func writeValue(_ value: GeneratedContent) {
    switch value.storage {
    case .null:
      appendASCII("null")
    case .bool(let flag):
      appendASCII(flag ? "true" : "false")
    case .number(let number):
      writeNumber(number)
    case .string(let string):
      writeString(string)
    case .array(let elements):
      if elements.isEmpty {
        appendASCII("[]")
      } else {
        bytes.append(UInt8(ascii: "["))
        containers.append(OpenContainer(keys: [], values: elements, next: 0, isObject: false))
      }
    case .structure(let keys, let values):
      if values.isEmpty {
        appendASCII("{}")
      } else {
        bytes.append(UInt8(ascii: "{"))
        containers.append(OpenContainer(keys: keys, values: values, next: 0, isObject: true))
      }
    }
  }

  private mutating func writeNewline() {
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<(containers.count * 2) { bytes.append(UInt8(ascii: " ")) }
  }

  private mutating func appendASCII(_ text: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Whole numbers below 2^53 as integers, other finite numbers in their
  /// shortest round-trip form, infinities and NaN as `null`.
  private mutating func writeNumber(_ number: Double) {
    guard number.isFinite else {
      appendASCII("null")
      return
    }
    guard number.rounded(.towardZero) == number, number.magnitude < 9_007_199_254_740_992 else {
      // Swift's description is the shortest text that reads back to the same
      // value, and is valid JSON for finite numbers (`0.1`, `1e-07`, `1e+300`).
      bytes.append(contentsOf: number.description.utf8)
      return
    }
    if number.sign == .minus { bytes.append(UInt8(ascii: "-")) }
    var magnitude = UInt64(number.magnitude)
    let start = bytes.count
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    bytes[start...].reverse()
  }

  /// Writes a quoted string, escaping `"`, `\` and control characters only.
  private mutating func writeString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var runStart = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        if runStart < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        }
        writeEscape(byte)
        runStart = index + 1
      }
      if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func writeEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
    case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
    case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    default:
      let hexDigits: StaticString = "0123456789abcdef"
      appendASCII("u00")
      bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
      bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
    }
  }
}
