/// One JSON value that `StableJSONEncoder` is building.
///
/// A reference, because the containers an `Encoder` hands out write into it
/// after the call that created them has returned. Objects keep their members
/// in the order they were first written; writing a key again replaces its
/// value in place (the last value wins, as with `JSONEncoder`).
final class StableJSONNode {
  enum Kind {
    /// Nothing written yet; written as `{}` inside a container.
    case pending
    case null
    case bool(Bool)
    /// The number's JSON text.
    case number(String)
    case string(String)
    /// The elements are `children`.
    case array
    /// The members are `keys` and `children`, pairwise.
    case object
  }

  var kind: Kind = .pending
  /// An object's keys, in order.
  private(set) var keys: [String] = []
  /// An array's elements, or an object's values.
  private(set) var children: [StableJSONNode] = []
  /// Where each key of an object sits in `keys`; only for replacing a key written twice.
  private var positions: [String: Int] = [:]

  var isPending: Bool {
    if case .pending = kind { return true }
    return false
  }

  /// Sets a scalar value, dropping any members.
  func set(_ scalar: Kind) {
    kind = scalar
    keys = []
    children = []
    positions = [:]
  }

  /// The node under `key`, created after the last member when the key is new;
  /// a key written again gets a fresh node in its first place.
  func member(_ key: String) -> StableJSONNode {
    let node = StableJSONNode()
    if let position = positions[key] {
      children[position] = node
    } else {
      positions[key] = keys.count
      keys.append(key)
      children.append(node)
    }
    return node
  }

  /// A new node after the last element.
  func appendElement() -> StableJSONNode {
    let node = StableJSONNode()
    children.append(node)
    return node
  }

  /// Puts the members of an object in key order (UTF-8 bytes), the elements of
  /// an array in the order of their JSON text.
  ///
  /// - Parameter alternatingPairs: Whether the array holds key, value, key,
  ///   value… (a `Dictionary` whose keys are neither strings nor integers):
  ///   pairs are then sorted by the key's text and kept together.
  func sortMembers(alternatingPairs: Bool) {
    switch kind {
    case .object:
      let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
      keys = order.map { keys[$0] }
      children = order.map { children[$0] }
      positions = [:]
      for (position, key) in keys.enumerated() { positions[key] = position }
    case .array:
      let texts = children.map(Self.text)
      if alternatingPairs && children.count.isMultiple(of: 2) {
        let pairStarts = stride(from: 0, to: children.count, by: 2).sorted {
          texts[$0].lexicographicallyPrecedes(texts[$1])
        }
        children = pairStarts.flatMap { [children[$0], children[$0 + 1]] }
      } else {
        let order = children.indices.sorted { texts[$0].lexicographicallyPrecedes(texts[$1]) }
        children = order.map { children[$0] }
      }
    default:
      break
    }
  }

  private static func text(of node: StableJSONNode) -> [UInt8] {
    var writer = StableJSONNodeWriter()
    writer.write(node)
    return writer.bytes
  }
}

/// Writes a `StableJSONNode` as compact JSON text.
struct StableJSONNodeWriter {
  private(set) var bytes: [UInt8] = []

  mutating func write(_ node: StableJSONNode) {
    switch node.kind {
    case .pending:
      bytes.append(contentsOf: "{}".utf8)
    case .null:
      bytes.append(contentsOf: "null".utf8)
    case .bool(let flag):
      bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let text):
      bytes.append(contentsOf: text.utf8)
    case .string(let string):
      writeString(string)
    case .array:
      bytes.append(UInt8(ascii: "["))
      for (index, element) in node.children.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object:
      bytes.append(UInt8(ascii: "{"))
      for index in node.keys.indices {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(node.keys[index])
        bytes.append(UInt8(ascii: ":"))
        write(node.children[index])
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// A quoted string: `"`, `\` and control characters escaped, everything else as UTF-8.
  private mutating func writeString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
      case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
      case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
      case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
      case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
      case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: #"\u00"#.utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
