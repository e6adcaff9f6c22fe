/// A schema built at run time, piece by piece; `GenerationSchema(root:dependencies:)`
/// checks it and turns it into a JSON Schema.
///
/// ```swift
/// let weather = DynamicGenerationSchema(name: "Weather", description: "A forecast", properties: [
///   .init(name: "city", schema: DynamicGenerationSchema(type: String.self)),
///   .init(name: "unit", schema: DynamicGenerationSchema(name: "Unit", anyOf: ["celsius", "fahrenheit"])),
///   .init(name: "days", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...14)]),
///         isOptional: true),
/// ])
/// let schema = try GenerationSchema(root: weather, dependencies: [])
/// ```
public struct DynamicGenerationSchema: Sendable {
  /// What the schema describes.
  indirect enum Definition: Sendable {
    case object(name: String, description: String?, properties: [Property])
    case anyOf(name: String, description: String?, choices: [DynamicGenerationSchema])
    case stringChoices(name: String, description: String?, choices: [String])
    case array(items: DynamicGenerationSchema, minimumCount: Int?, maximumCount: Int?)
    case type(GenerationSchema, guides: [SchemaConstraint])
    case reference(String)
  }

  /// What the schema describes.
  let definition: Definition

  /// A property of an object schema.
  public struct Property: Sendable {
    /// The property's key in the object.
    let name: String
    /// What the property means; it replaces the description of `schema` here.
    let description: String?
    /// The schema of the property's value.
    let schema: DynamicGenerationSchema
    /// Whether the object may leave the property out.
    let isOptional: Bool

    /// Creates a property.
    ///
    /// ```swift
    /// DynamicGenerationSchema.Property(
    ///   name: "nickname", description: "What friends call them",
    ///   schema: DynamicGenerationSchema(type: String.self), isOptional: true)
    /// ```
    public init(
      name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false
    ) {
      self.name = name
      self.description = description
      self.schema = schema
      self.isOptional = isOptional
    }
  }

  /// An object with `properties`, in the order given; the object may have no
  /// other properties.
  public init(name: String, description: String? = nil, properties: [Property]) {
    definition = .object(name: name, description: description, properties: properties)
  }

  /// A value that follows at least one of `choices` (JSON Schema `anyOf`).
  ///
  /// ```swift
  /// DynamicGenerationSchema(name: "Pet", anyOf: [catSchema, dogSchema])
  /// ```
  public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
    definition = .anyOf(name: name, description: description, choices: choices)
  }

  /// A string that is one of `choices` (JSON Schema `enum`).
  ///
  /// ```swift
  /// DynamicGenerationSchema(name: "Size", anyOf: ["small", "medium", "large"])
  /// ```
  public init(name: String, description: String? = nil, anyOf choices: [String]) {
    definition = .stringChoices(name: name, description: description, choices: choices)
  }

  /// An array whose elements follow `itemSchema`, optionally bounded in length.
  public init(
    arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil
  ) {
    definition = .array(items: itemSchema, minimumCount: minimumElements, maximumCount: maximumElements)
  }

  /// A value of `type` (such as `String`, `Int`, `Double`, `Decimal`, `Bool`,
  /// or an array of them), constrained by `guides`.
  ///
  /// ```swift
  /// DynamicGenerationSchema(type: Double.self, guides: [.range(0...1)])
  /// ```
  public init<Value: GenerationSchemaProviding>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
    definition = .type(Value.generationSchema, guides: guides.flatMap(\.constraints))
  }

  /// A reference to the dependency (or root) named `name`, written as
  /// `{"$ref": "#/$defs/name"}` (or `{"$ref": "#"}` for the root).
  ///
  /// ```swift
  /// let node = DynamicGenerationSchema(name: "Node", properties: [
  ///   .init(name: "children", schema: DynamicGenerationSchema(
  ///     arrayOf: DynamicGenerationSchema(referenceTo: "Node")))
  /// ])
  /// ```
  public init(referenceTo name: String) {
    definition = .reference(name)
  }

  /// The name a reference uses to point to this schema, if it has one.
  var name: String? {
    switch definition {
    case .object(let name, _, _), .anyOf(let name, _, _), .stringChoices(let name, _, _): name
    case .type(let schema, _): schema.root.title
    case .array, .reference: nil
    }
  }
}
