import Foundation
import ModelSession

/// Writing `GeneratedContent` as compact JSON text, against Foundation's
/// `JSONSerialization` writing the same document.
enum SerializeJSONBenchmark {
  static func make(size: BenchmarkJSONDocument.Size) throws -> BenchmarkCase {
    let text = BenchmarkJSONDocument.text(size: size)
    let content = try GeneratedContent(json: text)
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return BenchmarkCase(
      name: "json/serialize/\(size.label)",
      run: { content.jsonString.utf8.count },
      baseline: .init(name: "JSONSerialization.data") {
        try JSONSerialization.data(withJSONObject: object).count
      })
  }
}
