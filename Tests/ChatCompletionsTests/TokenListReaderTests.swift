import Foundation
import Testing

@testable import ChatCompletions

@Suite("Token list reader", .timeLimit(.minutes(10))) struct TokenListReaderTests {
  private func tokens(_ text: String) -> [Int]? {
    TokenListReader.tokens(in: Data(text.utf8))
  }

  @Test func `the plain answer reads in any JSON whitespace, empty lists included`() {
    #expect(tokens(#"{"tokens":[1,2,3]}"#) == [1, 2, 3])
    #expect(tokens(" \n{ \"tokens\" :\t[ 0 , 9007199254740992\r\n] } \n") == [0, 9_007_199_254_740_992])
    #expect(tokens(#"{"tokens":[]}"#) == [])
    #expect(tokens(#"{"tokens":[ ]}"#) == [])
  }

  @Test func `a token that is not a count, or text that is not the answer, is no token list`() {
    for text in [
      #"{"tokens":[-1]}"#, #"{"tokens":[1.5]}"#, #"{"tokens":[9007199254740993]}"#,
      #"{"tokens":[9223372036854775807]}"#, #"{"tokens":[99999999999999999999999]}"#, #"{"tokens":[1 2]}"#,
      #"{"tokens":[1]"#, #"{"tokens":"12"}"#, #"{"tokens":["1"]}"#, "", "[1,2]",
    ] {
      #expect(tokens(text) == nil, "\(text)")
    }
  }

  @Test func `another shape is decoded in full only when it is small`() {
    #expect(tokens(#"{"model":"m","tokens":[4,5]}"#) == [4, 5])
    // An exponent is not the plain shape; JSONDecoder reads 1e3 as 1000.
    #expect(tokens(#"{"tokens":[1e3]}"#) == [1_000])
    #expect(tokens(#"{"tokens":[4,-5],"model":"m"}"#) == nil)
    let padding = String(repeating: " ", count: TokenListReader.maximumGeneralAnswerBytes)
    #expect(tokens(#"{"model":"m",\#(padding)"tokens":[4,5]}"#) == nil)
    // The plain shape has no such bound.
    #expect(tokens(#"{"tokens":[4,5]\#(padding)}"#) == [4, 5])
  }

  @Test func `a long answer gives every token in order`() {
    let values = (0..<100_000).map { ($0 * 7_919) % 50_000 }
    let text = #"{"tokens":["# + values.map(String.init).joined(separator: ",") + "]}"
    #expect(tokens(text) == values)
  }
}
