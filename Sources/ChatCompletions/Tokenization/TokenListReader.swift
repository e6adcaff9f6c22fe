import Foundation
import ModelSession

/// Reads a tokenizer's answer, `{"tokens": [1, 2, 3]}`, in one pass over
/// its bytes: no value per number, no dictionary, milliseconds per
/// megabyte (Foundation's `JSONDecoder` took about 20 s of CPU and 1.5 GB
/// for a 60 MiB answer).
///
/// The answer must be that object and nothing else: one key, `tokens`,
/// whose value is an array of counts (whole numbers from 0 to 2^53,
/// ``CountRange``), with any JSON whitespace between. Another shape is
/// read with `JSONDecoder` as before, and only when the answer is small
/// (``maximumGeneralAnswerBytes``), so that no shape makes an answer cost
/// more than one pass.
package enum TokenListReader {
  /// The largest answer of another shape that is decoded in full (1 MiB).
  package static let maximumGeneralAnswerBytes = 1 << 20

  /// The token ids of an answer, or `nil` when it is not a token list.
  package static func tokens(in data: Data) -> [Int]? {
    if let tokens = data.withUnsafeBytes({ fastTokens(in: $0) }) { return tokens }
    guard data.count <= maximumGeneralAnswerBytes else { return nil }
    guard let list = try? JSONDecoder().decode(TokenList.self, from: data),
      list.tokens.allSatisfy(CountRange.contains)
    else { return nil }
    return list.tokens
  }

  private struct TokenList: Decodable {
    var tokens: [Int]
  }

  /// The plain shape, or `nil` when the bytes are anything else.
  private static func fastTokens(in bytes: UnsafeRawBufferPointer) -> [Int]? {
    var index = 0
    func skipSpace() {
      while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
    }
    func expect(_ text: StaticString) -> Bool {
      skipSpace()
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count else { return false }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
      index += count
      return true
    }
    guard expect("{"), expect("\"tokens\""), expect(":"), expect("[") else { return nil }
    var tokens: [Int] = []
    tokens.reserveCapacity(bytes.count / 4)
    if !expect("]") {
      while true {
        skipSpace()
        var value = 0
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < 17 {
          value = value * 10 + Int(bytes[index] - 0x30)
          index += 1
        }
        let digits = index - start
        // JSON allows no leading zero; more than 16 digits is past 2^53.
        guard digits > 0, digits < 17, !(digits > 1 && bytes[start] == 0x30), CountRange.contains(value)
        else {
          return nil
        }
        // A fraction or an exponent: not a whole number as written.
        if index < bytes.count {
          switch bytes[index] {
          case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
          default: break
          }
        }
        tokens.append(value)
        if expect("]") { break }
        guard expect(",") else { return nil }
      }
    }
    guard expect("}") else { return nil }
    skipSpace()
    return index == bytes.count ? tokens : nil
  }
}
