/// A self-contained HTML page for cache-impact results: headings, short
/// paragraphs, tables and inline SVG charts, with its styles inline and no
/// script, so it opens from disk in any browser and can be mailed as is.
///
/// Text given to the page is escaped; only charts (SVG that
/// ``CacheImpactChart`` made) are inserted as markup.
///
/// ```swift
/// var page = CacheReportPage(title: "Cache impact")
/// page.append(.paragraph("94% of prompt tokens reused."))
/// page.append(.chart(CacheImpactChart(reports: reports, title: "run").svg))
/// try FileWriter.write(Data(page.html.utf8), to: "report.html")  // never clobbers a device or link
/// ```
public struct CacheReportPage: Sendable {
  /// One block of the page.
  public enum Block: Sendable {
    /// A section heading.
    case heading(String)
    /// A paragraph of text.
    case paragraph(String)
    /// A table: headings, then rows of cells; the columns whose indices are in `numeric` hold
    /// numbers and are right-aligned, the others are left-aligned text.
    case table(headings: [String], rows: [[String]], numeric: Set<Int>)
    /// An SVG chart, inserted as markup.
    case chart(String)
    /// Preformatted text, such as a terminal table.
    case preformatted(String)
    /// Blocks folded under a summary line, opened by a click (HTML `<details>`), or shown open.
    case details(summary: String, blocks: [Block], open: Bool)
  }

  /// The page's title.
  public var title: String
  /// The blocks, in order.
  public private(set) var blocks: [Block] = []

  /// Creates an empty page.
  public init(title: String) {
    self.title = title
  }

  /// Adds a block at the end.
  public mutating func append(_ block: Block) {
    blocks.append(block)
  }

  /// Adds blocks at the end.
  public mutating func append(contentsOf more: [Block]) {
    blocks.append(contentsOf: more)
  }

  static let style = """
    body { font-family: system-ui, -apple-system, sans-serif; margin: 24px 32px; color: #222; max-width: 1260px; }
    h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; }
    table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
    th, td { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; }
    td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
    th { background: #f4f4f4; }
    pre { background: #f7f7f7; padding: 12px; overflow-x: auto; font-size: 12px; }
    svg { display: block; margin: 12px 0; border: 1px solid #e5e5e5; }
    details { margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
    """

  /// The whole page.
  public var html: String {
    var lines = [
      "<!DOCTYPE html>",
      #"<html lang="en">"#,
      "<head>",
      #"<meta charset="utf-8">"#,
      "<title>\(HTMLText.escaped(title))</title>",
      "<style>\n\(Self.style)\n</style>",
      "</head>",
      "<body>",
      "<h1>\(HTMLText.escaped(title))</h1>",
    ]
    for block in blocks { lines.append(Self.markup(of: block)) }
    lines.append("</body>")
    lines.append("</html>")
    return lines.joined(separator: "\n") + "\n"
  }

  private static func markup(of block: Block) -> String {
    switch block {
    case .heading(let text):
      return "<h2>\(HTMLText.escaped(text))</h2>"
    case .paragraph(let text):
      return "<p>\(HTMLText.escaped(text))</p>"
    case .preformatted(let text):
      return "<pre>\(HTMLText.escaped(text))</pre>"
    case .chart(let svg):
      return svg
    case .details(let summary, let blocks, let open):
      return "<details\(open ? " open" : "")><summary>\(HTMLText.escaped(summary))</summary>\n"
        + blocks.map(markup(of:)).joined(separator: "\n") + "\n</details>"
    case .table(let headings, let rows, let numeric):
      var lines = ["<table>", "<thead><tr>"]
      for (index, heading) in headings.enumerated() {
        lines.append(
          #"<th\#(numeric.contains(index) ? #" class="number""# : "")>\#(HTMLText.escaped(heading))</th>"#)
      }
      lines.append("</tr></thead>")
      lines.append("<tbody>")
      for row in rows {
        let cells = row.enumerated().map { index, cell in
          #"<td\#(numeric.contains(index) ? #" class="number""# : "")>\#(HTMLText.escaped(cell))</td>"#
        }
        lines.append("<tr>" + cells.joined() + "</tr>")
      }
      lines.append("</tbody>")
      lines.append("</table>")
      return lines.joined(separator: "\n")
    }
  }
}
