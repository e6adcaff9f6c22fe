/// A plain-text table with aligned columns, for terminals.
///
/// ```swift
/// var table = TextTable(columns: [.init("strategy"), .init("hit %", alignment: .right)])
/// table.append(["compactingHistory", "94.1"])
/// print(table.rendered)
/// ```
public struct TextTable: Sendable {
  /// A column: its heading and how its cells line up.
  public struct Column: Sendable {
    /// Left or right.
    public enum Alignment: Sendable {
      /// Text: padded on the right.
      case left
      /// Numbers: padded on the left.
      case right
    }

    /// The heading.
    public var heading: String
    /// How the cells line up.
    public var alignment: Alignment

    /// Creates a column.
    public init(_ heading: String, alignment: Alignment = .left) {
      self.heading = heading
      self.alignment = alignment
    }
  }

  /// The columns.
  public var columns: [Column]
  /// The rows; a row with fewer cells than columns leaves the rest blank.
  public private(set) var rows: [[String]] = []
  /// Where rule lines go: before the row at each of these indices.
  public private(set) var rulesBefore: Set<Int> = []

  /// Creates an empty table.
  public init(columns: [Column]) {
    self.columns = columns
  }

  /// Adds a row.
  public mutating func append(_ cells: [String]) {
    rows.append(cells)
  }

  /// Adds a rule line before the next row.
  public mutating func appendRule() {
    rulesBefore.insert(rows.count)
  }

  /// The table: the headings, a rule, then the rows, columns two spaces apart.
  public var rendered: String {
    var widths = columns.map(\.heading.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    var lines = [line(columns.map(\.heading), widths: widths), rule]
    for (index, row) in rows.enumerated() {
      if rulesBefore.contains(index) { lines.append(rule) }
      lines.append(line(row, widths: widths))
    }
    return lines.joined(separator: "\n")
  }

  private func line(_ cells: [String], widths: [Int]) -> String {
    var parts: [String] = []
    for (index, column) in columns.enumerated() {
      let cell = index < cells.count ? cells[index] : ""
      let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
      parts.append(column.alignment == .left ? cell + padding : padding + cell)
    }
    var text = parts.joined(separator: "  ")
    while text.last == " " { text.removeLast() }
    return text
  }
}
