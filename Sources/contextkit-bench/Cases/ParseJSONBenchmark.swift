import Foundation
import ModelSession

/// Parsing a generated JSON document into `GeneratedContent`, against
/// Foundation's `JSONSerialization` parsing the same bytes.
enum ParseJSONBenchmark {
  static func make(size: BenchmarkJSONDocument.Size) throws -> BenchmarkCase {
    let text = BenchmarkJSONDocument.text(size: size)
    let data = Data(text.utf8)
    // Check once that the input is valid for both.
    _ = try GeneratedContent(json: text)
    _ = try JSONSerialization.jsonObject(with: data)
    return BenchmarkCase(
      name: "json/parse/\(size.label)",
      run: { try GeneratedContent(json: text).orderedKeys.count },
      baseline: .init(name: "JSONSerialization.jsonObject") {
        let object = try JSONSerialization.jsonObject(with: data)
        return (object as? NSDictionary)?.count ?? 0
      })
  }
}
