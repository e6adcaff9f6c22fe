/// Formats counts the way people read them in messages: `1,204`.
enum CountFormatting {
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return value < 0 ? "-" + result : result
  }
}
