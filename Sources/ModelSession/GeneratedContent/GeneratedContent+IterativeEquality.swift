extension GeneratedContent {
  /// Compares two values without recursion, so that values nested thousands of
  /// levels deep compare safely on small (cooperative-thread) stacks. Objects
  /// are equal when their keys are in the same order with equal values.
  static func storagesAreEqual(_ lhs: GeneratedContent, _ rhs: GeneratedContent) -> Bool {
    var pending: [(GeneratedContent, GeneratedContent)] = [(lhs, rhs)]
    while let (left, right) = pending.popLast() {
      switch (left.storage, right.storage) {
      case (.null, .null):
        continue
      case (.bool(let a), .bool(let b)):
        guard a == b else { return false }
      case (.number(let a), .number(let b)):
        guard a == b else { return false }
      case (.string(let a), .string(let b)):
        guard a == b else { return false }
      case (.array(let a), .array(let b)):
        guard a.count == b.count else { return false }
        pending.append(contentsOf: zip(a, b))
      case (.structure(let keysA, let valuesA), .structure(let keysB, let valuesB)):
        guard keysA == keysB, valuesA.count == valuesB.count else { return false }
        pending.append(contentsOf: zip(valuesA, valuesB))
      default:
        return false
      }
    }
    return true
  }

  /// Hashes a value without recursion, consistently with `storagesAreEqual`.
  func hashStorage(into hasher: inout Hasher) {
    var pending: [GeneratedContent] = [self]
    while let value = pending.popLast() {
      switch value.storage {
      case .null:
        hasher.combine(0 as UInt8)
      case .bool(let flag):
        hasher.combine(1 as UInt8)
        hasher.combine(flag)
      case .number(let number):
        hasher.combine(2 as UInt8)
        hasher.combine(number)
      case .string(let string):
        hasher.combine(3 as UInt8)
        hasher.combine(string)
      case .array(let elements):
        hasher.combine(4 as UInt8)
        hasher.combine(elements.count)
        pending.append(contentsOf: elements.reversed())
      case .structure(let keys, let values):
        hasher.combine(5 as UInt8)
        hasher.combine(keys)
        pending.append(contentsOf: values.reversed())
      }
    }
  }
}
