import CacheAnalysis
import ModelSession

/// An inline SVG chart of a run's cache impact: one stacked bar per
/// generation, the reused prompt tokens at the bottom and the re-processed
/// ones on top, with a marker above every generation that invalidated the
/// cache, coloured by its cause, and a legend of the causes.
///
/// The SVG is self-contained (no scripts, no fonts or styles from the
/// network); each bar and marker carries a `<title>` that browsers show on
/// hover.
///
/// ```swift
/// let svg = CacheImpactChart(reports: reports, title: "coding-agent, compactingHistory").svg
/// ```
public struct CacheImpactChart: Sendable {
  /// The reports, one bar each.
  public var reports: [CacheImpactReport]
  /// The chart's title.
  public var title: String
  /// The budget drawn as a dashed line, when given.
  public var budget: Int?
  /// The chart's width in pixels.
  public var width: Int = 1_200
  /// The chart's height in pixels.
  public var height: Int = 380

  /// The colour of reused tokens.
  public static let reusedColor = "#3b82c4"
  /// The colour of re-processed tokens.
  public static let reprocessedColor = "#f0a04b"
  static let budgetColor = "#d62728"
  static let axisColor = "#333333"
  static let gridColor = "#e5e5e5"

  /// Creates a chart.
  public init(reports: [CacheImpactReport], title: String, budget: Int? = nil) {
    self.reports = reports
    self.title = title
    self.budget = budget
  }

  /// The colour of an invalidation's marker, by the kind of its cause.
  public static func color(of kind: CacheImpactCause.Kind) -> String {
    switch kind {
    case .historyRewritten: "#8e44ad"
    case .instructionsChanged: "#d62728"
    case .toolsChanged: "#8c564b"
    case .settingsChanged: "#17becf"
    case .responseSchemaChanged: "#e377c2"
    case .storedHistoryChanged: "#7f7f7f"
    case .appendOnly, .coldStart: "#2ca02c"
    }
  }

  private var plot: (left: Int, top: Int, width: Int, height: Int) {
    (left: 64, top: 56, width: width - 64 - 16, height: height - 56 - 40)
  }

  /// The largest value on the vertical axis: the peak prompt (or budget), rounded up to a tick.
  var axisMaximum: Int {
    let step = axisStep
    return axisPeak.addingSaturated(step - 1) / step * step
  }

  /// The step between ticks on the vertical axis.
  var axisStep: Int { Self.tickStep(for: axisPeak) }

  private var axisPeak: Int { max(reports.map(\.promptTokenCount).max() ?? 0, budget ?? 0, 1) }

  /// A round step that gives four to eight ticks up to `maximum`.
  static func tickStep(for maximum: Int) -> Int {
    var magnitude = 1
    while magnitude < Int.max / 100 {
      for factor in [1, 2, 5] where maximum / (magnitude * factor) <= 8 { return magnitude * factor }
      magnitude *= 10
    }
    return magnitude
  }

  /// The chart as an `<svg>` element.
  public var svg: String {
    let plot = plot
    let maximum = axisMaximum
    func y(_ tokens: Int) -> Double {
      Double(plot.top + plot.height) - Double(tokens) / Double(maximum) * Double(plot.height)
    }
    var parts: [String] = [
      #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" "#
        + #"viewBox="0 0 \#(width) \#(height)" role="img" aria-label="\#(HTMLText.escaped(title))" "#
        + #"font-family="system-ui, sans-serif" font-size="12">"#,
      #"<title>\#(HTMLText.escaped(title))</title>"#,
      #"<rect x="0" y="0" width="\#(width)" height="\#(height)" fill="white"/>"#,
      #"<text x="\#(plot.left)" y="20" font-size="15" font-weight="600">\#(HTMLText.escaped(title))</text>"#,
    ]
    parts.append(contentsOf: legend(plot: plot))
    parts.append(contentsOf: axes(plot: plot, maximum: maximum, y: y))
    parts.append(contentsOf: bars(plot: plot, y: y))
    if let budget {
      let line = Self.format(y(budget))
      parts.append(
        #"<line x1="\#(plot.left)" y1="\#(line)" x2="\#(plot.left + plot.width)" y2="\#(line)" "#
          + #"stroke="\#(Self.budgetColor)" stroke-dasharray="6 4" stroke-width="1"/>"#)
      parts.append(
        #"<text x="\#(plot.left + plot.width - 4)" y="\#(Self.format(y(budget) - 4))" text-anchor="end" "#
          + #"fill="\#(Self.budgetColor)" stroke="white" stroke-width="3" paint-order="stroke">"#
          + #"budget \#(budget)</text>"#)
    }
    parts.append("</svg>")
    return parts.joined(separator: "\n")
  }

  private func legend(plot: (left: Int, top: Int, width: Int, height: Int)) -> [String] {
    var items: [(color: String, label: String, marker: Bool)] = [
      (Self.reusedColor, "reused", false), (Self.reprocessedColor, "re-processed", false),
    ]
    var seen: [String: Int] = [:]
    var order: [(key: String, kind: CacheImpactCause.Kind)] = []
    for report in reports where report.cause.isInvalidation {
      let key = report.cause.groupingKey
      if seen[key] == nil { order.append((key, report.cause.kind)) }
      seen[key, default: 0] += 1
    }
    for (key, kind) in order {
      items.append((Self.color(of: kind), "\(key) ×\(seen[key] ?? 0)", true))
    }
    var parts: [String] = []
    var x = plot.left
    for item in items {
      if item.marker {
        parts.append(#"<path d="M\#(x) 30 L\#(x + 12) 30 L\#(x + 6) 41 Z" fill="\#(item.color)"/>"#)
      } else {
        parts.append(#"<rect x="\#(x)" y="30" width="12" height="12" fill="\#(item.color)"/>"#)
      }
      parts.append(#"<text x="\#(x + 16)" y="40">\#(HTMLText.escaped(item.label))</text>"#)
      x += 16 + item.label.count * 7 + 18
    }
    return parts
  }

  private func axes(
    plot: (left: Int, top: Int, width: Int, height: Int), maximum: Int, y: (Int) -> Double
  ) -> [String] {
    let bottom = plot.top + plot.height
    var parts = [
      #"<line x1="\#(plot.left)" y1="\#(bottom)" x2="\#(plot.left + plot.width)" y2="\#(bottom)" stroke="\#(Self.axisColor)"/>"#,
      #"<line x1="\#(plot.left)" y1="\#(plot.top)" x2="\#(plot.left)" y2="\#(bottom)" stroke="\#(Self.axisColor)"/>"#,
    ]
    let step = axisStep
    var tick = 0
    while tick <= maximum {
      let position = Self.format(y(tick))
      parts.append(
        #"<line x1="\#(plot.left - 4)" y1="\#(position)" x2="\#(plot.left + plot.width)" y2="\#(position)" "#
          + #"stroke="\#(Self.gridColor)"/>"#)
      parts.append(
        #"<text x="\#(plot.left - 8)" y="\#(position)" dy="4" text-anchor="end">\#(tick)</text>"#)
      tick += step
    }
    parts.append(
      #"<text x="16" y="\#(plot.top + plot.height / 2)" transform="rotate(-90 16 \#(plot.top + plot.height / 2))" "#
        + #"text-anchor="middle">prompt tokens</text>"#)
    parts.append(
      #"<text x="\#(plot.left + plot.width / 2)" y="\#(height - 6)" text-anchor="middle">generation</text>"#)
    let labelEvery = max(1, Self.tickStep(for: max(1, reports.count)))
    for index in stride(from: 0, to: reports.count, by: labelEvery) {
      let x = Double(plot.left) + (Double(index) + 0.5) * barSlot(plot: plot)
      parts.append(#"<text x="\#(Self.format(x))" y="\#(bottom + 16)" text-anchor="middle">\#(index)</text>"#)
    }
    return parts
  }

  private func barSlot(plot: (left: Int, top: Int, width: Int, height: Int)) -> Double {
    Double(plot.width) / Double(max(1, reports.count))
  }

  private func bars(plot: (left: Int, top: Int, width: Int, height: Int), y: (Int) -> Double) -> [String] {
    let slot = barSlot(plot: plot)
    let barWidth = Self.format(max(1, slot * (slot >= 4 ? 0.8 : 1)))
    var parts: [String] = []
    for (index, report) in reports.enumerated() {
      let x = Self.format(Double(plot.left) + Double(index) * slot + (slot >= 4 ? slot * 0.1 : 0))
      let reusedTop = y(report.reusedTokenCount)
      let promptTop = y(report.promptTokenCount)
      let bottom = Double(plot.top + plot.height)
      let label = HTMLText.escaped(report.description)
      parts.append(#"<g><title>\#(label)</title>"#)
      parts.append(
        #"<rect x="\#(x)" y="\#(Self.format(reusedTop))" width="\#(barWidth)" "#
          + #"height="\#(Self.format(bottom - reusedTop))" fill="\#(Self.reusedColor)"/>"#)
      parts.append(
        #"<rect x="\#(x)" y="\#(Self.format(promptTop))" width="\#(barWidth)" "#
          + #"height="\#(Self.format(reusedTop - promptTop))" fill="\#(Self.reprocessedColor)"/>"#)
      parts.append("</g>")
      if report.cause.isInvalidation {
        let center = Double(plot.left) + (Double(index) + 0.5) * slot
        let top = promptTop - 3
        // Narrower markers when bars are dense, so that neighbours stay apart.
        let half = min(5, max(2, slot * 0.6))
        parts.append(
          #"<path d="M\#(Self.format(center - half)) \#(Self.format(top - 9)) L\#(Self.format(center + half)) "#
            + #"\#(Self.format(top - 9)) L\#(Self.format(center)) \#(Self.format(top)) Z" "#
            + #"fill="\#(Self.color(of: report.cause.kind))"><title>\#(HTMLText.escaped(report.cause.description))"#
            + "</title></path>")
      }
    }
    return parts
  }

  /// A coordinate with at most one decimal.
  static func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
