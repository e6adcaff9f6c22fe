/// Generated JSON documents for benchmarks: records with nested objects and
/// arrays, strings with escapes and non-ASCII text, integers and decimals.
/// The same size always gives the same bytes.
enum BenchmarkJSONDocument {
  /// A target document size.
  enum Size {
    case oneKilobyte, tenKilobytes, hundredKilobytes, tenMegabytes

    /// The size in bytes that the document reaches or just exceeds.
    var bytes: Int {
      switch self {
      case .oneKilobyte: 1_000
      case .tenKilobytes: 10_000
      case .hundredKilobytes: 100_000
      case .tenMegabytes: 10_000_000
      }
    }

    /// The size as written in case names: `1KB`, `100KB`, `10MB`.
    var label: String {
      switch self {
      case .oneKilobyte: "1KB"
      case .tenKilobytes: "10KB"
      case .hundredKilobytes: "100KB"
      case .tenMegabytes: "10MB"
      }
    }
  }

  /// The UTF-8 text of a document of about `size`.
  static func text(size: Size) -> String {
    var random = SplitMix64(seed: 2026)
    var text = #"{"kind":"benchmark","version":3,"records":["#
    var index = 0
    while text.utf8.count < size.bytes - 2 {
      if index > 0 { text += "," }
      text += record(index, &random)
      index += 1
    }
    text += "]}"
    return text
  }

  private static let words = [
    "alpha", "bravo", "café", "delta", "echo", "föxtrot", "golf", "hotel", "india", "juliett",
    "kilo", "lima", "日本", "november", "oscar", "papa",
  ]

  private static func record(_ index: Int, _ random: inout SplitMix64) -> String {
    let name = words[random.next(below: words.count)] + " " + words[random.next(below: words.count)]
    let score = Double(random.next(below: 1_000_000)) / 1000 - 250
    let ratio = Double(random.next(below: 1 << 30)) / Double(1 << 30)
    let tags = (0..<random.next(below: 5)).map { _ in "\"\(words[random.next(below: words.count)])\"" }
    var text = #"{"id":\#(index),"name":"\#(name)","active":\#(random.next(below: 2) == 0),"#
    text += #""score":\#(score),"ratio":\#(ratio),"count":\#(random.next(below: 100_000)),"#
    text += #""tags":[\#(tags.joined(separator: ","))],"#
    text += #""note":"line one\nline \"two\"\ttabbed \u00e9\u20ac \ud83d\ude00 path/to/\#(index)","#
    text += #""location":{"lat":\#(ratio * 180 - 90),"lon":\#(score / 2),"city":null},"#
    text +=
      #""history":[{"t":\#(1_700_000_000 + index),"v":-3.5e-3},{"t":\#(1_700_000_100 + index),"v":12}]}"#
    return text
  }
}

/// A small, fast, deterministic pseudo-random generator (SplitMix64).
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
