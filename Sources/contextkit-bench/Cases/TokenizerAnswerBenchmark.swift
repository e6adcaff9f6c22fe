import ChatCompletions
import Foundation

/// Reading a tokenizer's answer (`{"tokens": [...]}`, 4 MiB, about 700,000
/// token ids) with ContextKit's one-pass reader, against Foundation's
/// `JSONDecoder` decoding the same bytes (what the tokenizer used before: a
/// 60 MiB answer took about 20 s of CPU).
enum TokenizerAnswerBenchmark {
  static func make() throws -> BenchmarkCase {
    var text = #"{"tokens":["#
    var count = 0
    while text.utf8.count < 4 << 20 {
      if count > 0 { text += "," }
      text += String((count * 7_919) % 49_152)
      count += 1
    }
    text += "]}"
    let data = Data(text.utf8)
    struct TokenList: Decodable { var tokens: [Int] }
    // Check once that both read the same list.
    guard TokenListReader.tokens(in: data) == (try JSONDecoder().decode(TokenList.self, from: data)).tokens
    else {
      throw BenchmarkSetupError(description: "the two readers disagree on the tokenizer answer")
    }
    return BenchmarkCase(
      name: "chat/tokenizer-answer/4MiB",
      run: { TokenListReader.tokens(in: data)?.count ?? 0 },
      baseline: .init(name: "JSONDecoder") {
        try JSONDecoder().decode(TokenList.self, from: data).tokens.count
      },
      unit: BenchmarkUnit(name: "token", countPerOperation: count))
  }
}
