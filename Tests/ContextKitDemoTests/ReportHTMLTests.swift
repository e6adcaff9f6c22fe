import CacheAnalysis
import Foundation
import Testing

@testable import CacheReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Whether `text` parses as XML, and the parser's error when not.
func parsesAsXML(_ text: String) -> (ok: Bool, error: String?) {
  let parser = XMLParser(data: Data(text.utf8))
  let ok = parser.parse()
  return (ok, parser.parserError.map { "\($0)" })
}

@Suite("Report page", .timeLimit(.minutes(10))) struct ReportHTMLTests {
  let hostile = CacheImpactCause(
    kind: .historyRewritten, source: "my<modifier>",
    detail: #"dropped "old" turns & <script>alert(1)</script>"#)

  @Test func `text is escaped for HTML and XML`() {
    #expect(
      HTMLText.escaped(#"<a href="x">Tom & Jerry's</a>"#)
        == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    #expect(HTMLText.escaped("bell\u{07}") == "bell ")
    var page = CacheReportPage(title: "<Title> & more")
    page.append(.paragraph("<script>alert(1)</script>"))
    page.append(.table(headings: ["a<b"], rows: [["x&y"]], numeric: []))
    let html = page.html
    #expect(!html.contains("<script>"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains("<title>&lt;Title&gt; &amp; more</title>"))
    #expect(html.contains("<td>x&amp;y</td>"))
  }

  @Test func `the chart is well-formed SVG with a bar per generation and a marker per invalidation`() {
    let reports = [
      report(0, prompt: 1_000, reused: 0, cause: CacheImpactCause(kind: .coldStart)),
      report(1, prompt: 1_400, reused: 1_000),
      report(2, prompt: 900, reused: 16, cause: hostile),
      report(3, prompt: 1_300, reused: 900),
    ]
    let svg = CacheImpactChart(reports: reports, title: #"run "A" <1>"#, budget: 1_500).svg
    let parsed = parsesAsXML(svg)
    #expect(parsed.ok, "\(parsed.error ?? "")")
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(!svg.contains("<script"))
    #expect(svg.components(separatedBy: "fill=\"\(CacheImpactChart.reusedColor)\"").count - 1 == 4 + 1)
    #expect(svg.components(separatedBy: "<path d=").count - 1 == 1 + 1)
    #expect(svg.contains("historyRewritten(my&lt;modifier&gt;) ×1"))
    // The legend names the two parts of each bar as the tables do.
    #expect(svg.contains(">reused</text>") && svg.contains(">re-processed</text>"))
    #expect(svg.contains("budget 1500"))
  }

  @Test func `an analysis page's charts parse as XML, and the page has no script`() {
    let reports = (0..<60).map { index in
      report(
        index, prompt: 500 + index * 40, reused: index % 10 == 9 ? 0 : 480 + index * 40,
        cause: index % 10 == 9 ? hostile : .appendOnly)
    }
    var page = CacheReportPage(title: "analysis")
    page.appendAnalysis(of: reports, title: "sixty", budget: 3_000)
    let html = page.html
    #expect(!html.contains("<script"))
    guard let start = html.range(of: "<svg"), let end = html.range(of: "</svg>") else {
      Issue.record("no chart in the page")
      return
    }
    let svg = String(html[start.lowerBound..<end.upperBound])
    #expect(parsesAsXML(svg).ok)
    #expect(html.contains("Every invalidation (6)"))
  }

  @Test func `the vertical axis ends on a labelled tick`() {
    let chart = CacheImpactChart(reports: [report(0, prompt: 8_191, reused: 0)], title: "t", budget: 8_192)
    #expect(chart.axisStep == 1_000)
    #expect(chart.axisMaximum == 9_000)
    #expect(chart.svg.contains(">9000</text>"))
    #expect(CacheImpactChart.tickStep(for: 36_895) == 5_000)
  }

  @Test func `the vertical axis reaches a budget above every prompt`() {
    // Prompts of 3,000 alone would end the axis at 3,000 (ticks of 500); the budget of
    // 8,192 needs ticks of 1,000 up to 9,000, so that its line is drawn inside the chart.
    let chart = CacheImpactChart(
      reports: [report(0, prompt: 3_000, reused: 0), report(1, prompt: 3_000, reused: 2_000)], title: "t",
      budget: 8_192)
    #expect(chart.axisStep == 1_000)
    #expect(chart.axisMaximum == 9_000)
    #expect(chart.svg.contains(">9000</text>"))
    #expect(chart.svg.contains("budget 8192</text>"))
  }

  @Test func `percentages and text tables`() {
    #expect(CacheImpactTable.percent(0.8843) == "88.4")
    #expect(CacheImpactTable.percent(1) == "100.0")
    var table = TextTable(columns: [.init("name"), .init("n", alignment: .right)])
    table.append(["a", "1"])
    table.appendRule()
    table.append(["total", "10"])
    #expect(table.rendered == "name    n\n-----  --\na       1\n-----  --\ntotal  10")
  }

  @Test func `a text table's widths come from headings and cells, counted in characters`() {
    // "tokens" is wider than its cells; "cold ×1" (7 characters, 8 bytes) than its heading;
    // the last row has one cell of two, and its line ends without padding.
    var table = TextTable(columns: [.init("cause"), .init("tokens", alignment: .right)])
    table.append(["cold ×1", "7"])
    table.append(["édit"])
    #expect(table.rendered == "cause    tokens\n-------  ------\ncold ×1       7\nédit")
    // Padding is counted in characters too: "édit" (4 characters, 5 bytes) takes 3 blanks to
    // reach 7, then 2 between columns; "≈9" (2 characters, 4 bytes) takes 4 to reach 6.
    table.append(["édit", "≈9"])
    #expect(table.rendered.hasSuffix("\nédit\nédit" + String(repeating: " ", count: 9) + "≈9"))
  }
}
