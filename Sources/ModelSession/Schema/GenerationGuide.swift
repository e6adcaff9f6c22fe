import Foundation

/// A constraint on the values the model may generate for a `Value`, such as
/// a set of allowed strings, a numeric range or an array length.
///
/// Guides are written into the JSON Schema (`enum`, `const`, `pattern`,
/// `minimum`, `maximum`, `minItems`, `maxItems`) and checked by
/// `GenerationSchema.validate(_:)`. When two guides set the same constraint,
/// the later one wins.
///
/// ```swift
/// let age = DynamicGenerationSchema(type: Int.self, guides: [.range(0...130)])
/// let code = DynamicGenerationSchema(type: String.self, guides: [.pattern("^[A-Z]{3}$")])
/// let tags = DynamicGenerationSchema(type: [String].self, guides: [.count(1...5)])
/// ```
public struct GenerationGuide<Value>: Sendable {
  /// What the guide constrains, independent of `Value`.
  let constraints: [SchemaConstraint]

  init(_ constraints: [SchemaConstraint]) {
    self.constraints = constraints
  }
}

/// A single constraint carried by a `GenerationGuide`.
indirect enum SchemaConstraint: Sendable, Hashable {
  case choices([String])
  case constant(String)
  case pattern(String)
  case minimum(Double)
  case maximum(Double)
  case minimumCount(Int)
  case maximumCount(Int)
  case element([SchemaConstraint])

  /// The guide's name as written in code, for error messages.
  var guideName: String {
    switch self {
    case .choices: ".anyOf"
    case .constant: ".constant"
    case .pattern: ".pattern"
    case .minimum: ".minimum"
    case .maximum: ".maximum"
    case .minimumCount: ".minimumCount"
    case .maximumCount: ".maximumCount"
    case .element: ".element"
    }
  }
}

extension GenerationGuide where Value == String {
  /// The value must be one of `values` (JSON Schema `enum`).
  public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
    GenerationGuide([.choices(values)])
  }

  /// The value must be exactly `value` (JSON Schema `const`).
  public static func constant(_ value: String) -> GenerationGuide<String> {
    GenerationGuide([.constant(value)])
  }

  /// The value must contain a match of the regular expression `pattern`
  /// (JSON Schema `pattern`; anchor it with `^…$` to match the whole value).
  ///
  /// The framework takes a `Regex` here. A `Regex` cannot give back its source
  /// text on Linux, and the schema needs that text, so this portable version
  /// takes the pattern as a string. `GenerationSchema(root:dependencies:)`
  /// rejects a pattern that does not compile.
  ///
  /// ```swift
  /// DynamicGenerationSchema(type: String.self, guides: [.pattern(#"^\d{4}-\d{2}-\d{2}$"#)])
  /// ```
  public static func pattern(_ pattern: String) -> GenerationGuide<String> {
    GenerationGuide([.pattern(pattern)])
  }
}

extension GenerationGuide where Value == Int {
  /// The value must be at least `value`.
  public static func minimum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide([.minimum(Double(value))])
  }

  /// The value must be at most `value`.
  public static func maximum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide([.maximum(Double(value))])
  }

  /// The value must lie in `range`, bounds included.
  public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
    GenerationGuide([.minimum(Double(range.lowerBound)), .maximum(Double(range.upperBound))])
  }
}

extension GenerationGuide where Value == Double {
  /// The value must be at least `value`.
  public static func minimum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide([.minimum(value)])
  }

  /// The value must be at most `value`.
  public static func maximum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide([.maximum(value)])
  }

  /// The value must lie in `range`, bounds included.
  public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
    GenerationGuide([.minimum(range.lowerBound), .maximum(range.upperBound)])
  }
}

extension GenerationGuide where Value == Decimal {
  /// The value must be at least `value` (compared as a `Double`).
  public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide([.minimum(NSDecimalNumber(decimal: value).doubleValue)])
  }

  /// The value must be at most `value` (compared as a `Double`).
  public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide([.maximum(NSDecimalNumber(decimal: value).doubleValue)])
  }

  /// The value must lie in `range`, bounds included (compared as `Double`s).
  public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
    GenerationGuide([
      .minimum(NSDecimalNumber(decimal: range.lowerBound).doubleValue),
      .maximum(NSDecimalNumber(decimal: range.upperBound).doubleValue),
    ])
  }
}

extension GenerationGuide {
  /// The array must have at least `count` elements (`minItems`).
  public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(count)])
  }

  /// The array must have at most `count` elements (`maxItems`).
  public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.maximumCount(count)])
  }

  /// The array must have exactly `count` elements.
  public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(count), .maximumCount(count)])
  }

  /// The array's length must lie in `range`, bounds included.
  public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
  }

  /// Every element must follow `guide`.
  ///
  /// ```swift
  /// DynamicGenerationSchema(type: [Int].self, guides: [.element(.range(1...6))])
  /// ```
  public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]>
  where Value == [Element] {
    GenerationGuide<[Element]>([.element(guide.constraints)])
  }
}
