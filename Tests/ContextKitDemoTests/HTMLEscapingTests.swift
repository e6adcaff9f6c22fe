import CacheAnalysis
import Foundation
import Testing

@testable import CacheReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the attributes of every `<svg>` element.
private final class SVGAttributes: NSObject, XMLParserDelegate {
  var attributes: [[String: String]] = []
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes attributeDict: [String: String]
  ) {
    if elementName == "svg" { attributes.append(attributeDict) }
  }
}

@Suite("HTML escaping by Unicode scalar", .timeLimit(.minutes(10))) struct HTMLEscapingTests {
  @Test func `a quote or bracket followed by a combining mark is still escaped`() {
    // U+0338 and U+0301 combine with the character before them into one Character.
    let cases: [(text: String, escaped: String)] = [
      ("\"\u{0338}", "&quot;\u{0338}"),
      ("<\u{0338}script>", "&lt;\u{0338}script&gt;"),
      ("'\u{0301}&\u{0301}>\u{20DD}", "&#39;\u{0301}&amp;\u{0301}&gt;\u{20DD}"),
      ("e\u{0301}", "e\u{0301}"),
      ("\r\n\u{FFFE}", "\r\n "),
    ]
    for (text, escaped) in cases {
      #expect(HTMLText.escaped(text) == escaped)
    }
  }

  @Test func `a records file name cannot add attributes to the chart's svg`() throws {
    let name = "r.json\"\u{0338} onload=\"alert(1)\"\u{0338} x=\"\u{0338}"
    let svg = CacheImpactChart(reports: [report(0, prompt: 100, reused: 0)], title: name).svg
    let rawQuote = "\"\u{0338}"
    #expect(!svg.contains(rawQuote))
    let parser = XMLParser(data: Data(svg.utf8))
    let collector = SVGAttributes()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let attributes = try #require(collector.attributes.first)
    #expect(attributes["onload"] == nil)
    #expect(attributes["aria-label"] == name)
    #expect(
      Set(attributes.keys) == [
        "xmlns", "width", "height", "viewBox", "role", "aria-label", "font-family", "font-size",
      ])
  }
}
