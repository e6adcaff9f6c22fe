import CacheAnalysis
import Foundation
import Testing

@testable import CacheReport

/// Four generations: two the server reported (16 more reused than predicted, for a
/// shared block start; 2 fewer, within the tolerance), then a rewrite whose cached
/// figure the server did not give, then a tool change the server said nothing about.
private let fourGenerations: [CacheImpactReport] = {
  var first = report(4, prompt: 200, reused: 160)
  first.turnIndex = 2
  first.round = 1
  return [
    reported(first, prompt: 210, cached: 176, cause: .sharedBlockStart),
    reported(report(5, prompt: 300, reused: 200), prompt: 310, cached: 198, cause: .agrees),
    {
      var rewrite = report(
        6, prompt: 100, reused: 16,
        cause: CacheImpactCause(kind: .historyRewritten, source: "rollingWindow", detail: "dropped 2 turns"))
      rewrite.serverUsage = CacheImpactReport.ServerUsage(totalTokenCount: 100, cachedTokenCount: nil)
      return rewrite
    }(),
    report(7, prompt: 150, reused: 0, cause: CacheImpactCause(kind: .toolsChanged)),
  ]
}()

@Suite("Cache impact table", .timeLimit(.minutes(10))) struct CacheImpactTableTests {
  @Test func `each row: counts, hit %, divergence, cause, the server's cached tokens and its difference`() {
    #expect(
      CacheImpactTable.rows(for: fourGenerations) == [
        [
          "4", "2.1", "200", "160", "40", "80.0", "", "appendOnly: append only", "176",
          "+16 sharedBlockStart",
        ],
        ["5", "5.0", "300", "200", "100", "66.7", "", "appendOnly: append only", "198", "-2"],
        [
          "6", "6.0", "100", "16", "84", "16.0", "entry 1 (prompt)",
          "historyRewritten(rollingWindow): dropped 2 turns", "?", "",
        ],
        ["7", "7.0", "150", "0", "150", "0.0", "entry 1 (prompt)", "toolsChanged", "", ""],
      ])
  }

  @Test func `the divergence names the changed block's reused start, an estimate with a tilde`() {
    var exact = report(8, prompt: 700, reused: 569, cause: CacheImpactCause(kind: .instructionsChanged))
    exact.match.changedBlockStart = ChangedBlockStart(
      tokenCount: 569, sharedByteCount: 2_300, isEstimate: false)
    var estimated = exact
    estimated.match.changedBlockStart = ChangedBlockStart(
      tokenCount: 6, sharedByteCount: 31, isEstimate: true)
    #expect(CacheImpactTable.rows(for: [exact])[0][6] == "entry 1 (prompt) (first 569 reused)")
    #expect(CacheImpactTable.rows(for: [estimated])[0][6] == "entry 1 (prompt) (first ~6 reused)")
  }

  @Test func `the totals row counts invalidations and the prediction's error over reported generations`() {
    // 376 of 750 reused (50.1%); the server cached 176 + 198 = 374 where 360 was
    // predicted: (360 - 374) / 374 = -3.7%.
    #expect(
      CacheImpactTable.totalsRow(for: CacheImpactSummary(reports: fourGenerations)) == [
        "total", "4 gen.", "750", "376", "374", "50.1", "", "2 invalidations", "374", "predicted -3.7%",
      ])
    // No generation the server reported: its columns stay empty, not 0.
    #expect(
      CacheImpactTable.totalsRow(for: CacheImpactSummary(reports: Array(fourGenerations.suffix(2)))) == [
        "total", "2 gen.", "250", "16", "234", "6.4", "", "2 invalidations", "", "",
      ])
  }

  @Test func `percentages round half up to one decimal, signed ones keep their sign`() {
    #expect(CacheImpactTable.percent(0.8846) == "88.5")
    #expect(CacheImpactTable.percent(0.8125) == "81.3")
    #expect(CacheImpactTable.percent(0) == "0.0")
    #expect(CacheImpactTable.signedPercent(0.025) == "+2.5%")
    #expect(CacheImpactTable.signedPercent(-0.003) == "-0.3%")
    // A prediction that matches the server exactly is no miss below it.
    #expect(CacheImpactTable.signedPercent(0) == "+0.0%")
  }

  @Test func `a run's analysis on the page: totals line, causes, every invalidation, every generation`()
    throws
  {
    var page = CacheReportPage(title: "run")
    page.appendAnalysis(of: fourGenerations, title: "run")
    let html = page.html
    // Each expected fragment is a typed constant: joined inside `#expect`, the
    // literals took the type checker ten seconds.
    let totalsLine: String =
      "<p>4 generations, 750 prompt tokens, 376 reused (50.1%), 374 re-processed; "
      + "the largest prompt took 300 tokens.</p>"
    #expect(html.contains(totalsLine))
    // The causes, most tokens re-processed first.
    let causeHeadings: [String] = [
      #"<th>cause</th>"#, #"<th class="number">invalidations</th>"#,
      #"<th class="number">tokens re-processed</th>"#,
    ]
    #expect(html.contains(causeHeadings.joined(separator: "\n")))
    let causeRows: [String] = [
      #"<tr><td>toolsChanged</td><td class="number">1</td><td class="number">150</td></tr>"#,
      #"<tr><td>historyRewritten(rollingWindow)</td><td class="number">1</td><td class="number">84</td></tr>"#,
    ]
    #expect(html.contains(causeRows.joined(separator: "\n")))
    #expect(html.contains("<details><summary>Every invalidation (2)</summary>"))
    let invalidationRow: [String] = [
      #"<tr><td class="number">6</td><td>6.0</td><td class="number">84</td>"#,
      "<td>block 1, entry 1 (prompt), after 16 tokens</td>",
      "<td>historyRewritten(rollingWindow): dropped 2 turns</td></tr>",
    ]
    #expect(html.contains(invalidationRow.joined()))
    #expect(html.contains("<details><summary>Every generation (4)</summary>"))
    let totalsRow: [String] = [
      #"<tr><td class="number">total</td><td>4 gen.</td><td class="number">750</td>"#,
      #"<td class="number">376</td><td class="number">374</td><td class="number">50.1</td><td></td>"#,
      #"<td>2 invalidations</td><td class="number">374</td><td>predicted -3.7%</td></tr>"#,
    ]
    #expect(html.contains(totalsRow.joined()))
    // The totals row closes the table: the four generations come before it, and no row after it.
    let generations = try #require(html.range(of: "<details><summary>Every generation (4)</summary>"))
    let table = html[generations.upperBound...]
    let totals = try #require(table.range(of: #"<tr><td class="number">total</td>"#))
    let end = try #require(table.range(of: "</table>"))
    #expect(table[..<totals.lowerBound].components(separatedBy: "<tr><td").count - 1 == 4)
    #expect(!table[totals.upperBound..<end.lowerBound].contains("<tr>"))
  }

  @Test func `headings, folded summaries and preformatted text are escaped; open details are open`() {
    var page = CacheReportPage(title: "t")
    page.append(.heading("a <b> & c"))
    page.append(.details(summary: "x < y", blocks: [.preformatted("<pre> & co")], open: true))
    page.append(.details(summary: "folded", blocks: [], open: false))
    page.append(.table(headings: ["n<", "m"], rows: [["1", "2"]], numeric: [0]))
    let html = page.html
    #expect(html.contains("<h2>a &lt;b&gt; &amp; c</h2>"))
    #expect(
      html.contains("<details open><summary>x &lt; y</summary>\n<pre>&lt;pre&gt; &amp; co</pre>\n</details>"))
    #expect(html.contains("<details><summary>folded</summary>\n\n</details>"))
    #expect(html.contains(#"<th class="number">n&lt;</th>"# + "\n<th>m</th>"))
    #expect(html.contains(#"<tr><td class="number">1</td><td>2</td></tr>"#))
  }

  @Test func `a bar: reused tokens at the bottom in blue, re-processed on top in orange`() {
    // Plot 64..1184 x 56..340 (284 high); axis 0–1,000. One bar of 1,120 px slot,
    // 896 wide from x 176. 250 reused: y 340 - 71 = 269; the prompt's top at y 56.
    let svg = CacheImpactChart(reports: [report(0, prompt: 1_000, reused: 250)], title: "t").svg
    #expect(svg.contains(##"<rect x="176" y="269" width="896" height="71" fill="#3b82c4"/>"##))
    #expect(svg.contains(##"<rect x="176" y="56" width="896" height="213" fill="#f0a04b"/>"##))
    #expect(svg.contains(#">1000</text>"#))
    #expect(!svg.contains("budget"))
  }
}
