import Foundation

// The JSON form of a transcript is documented in docs/transcript-format.md.
// Every entry and segment is an object with a "type" discriminator; generated
// content (tool arguments, structured segments, metadata values) is written as
// its compact JSON text, so key order and bytes survive any encoder.

extension Transcript: Codable {
  private enum CodingKeys: String, CodingKey { case entries }

  /// Decodes a transcript from `{"entries": [...]}`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(entries: try container.decode([Entry].self, forKey: .entries))
  }

  /// Encodes the transcript as `{"entries": [...]}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
  }

  /// The transcript's stable JSON form: the same transcript always gives the same bytes.
  public func jsonData(prettyPrinted: Bool = false) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    return try encoder.encode(self)
  }

  /// Decodes a transcript from its JSON form.
  public init(jsonData: Data) throws {
    self = try JSONDecoder().decode(Transcript.self, from: jsonData)
  }
}

private enum FormKeys: String, CodingKey {
  case type, id, segments, toolDefinitions, options, responseFormat, calls, toolName, arguments, metadata
  case assetIDs, signature, content, source, label, image, data, mimeType, url, customType, value
  case name, description, parameters, schema
}

extension Transcript.Entry: Codable {
  /// Decodes an entry; its `type` says which kind.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    let id = try container.decode(String.self, forKey: .id)
    switch type {
    case "instructions":
      self = .instructions(try Transcript.Instructions(from: decoder))
    case "prompt":
      self = .prompt(
        Transcript.Prompt(
          id: id, segments: try container.decode([Transcript.Segment].self, forKey: .segments),
          options: try container.decodeIfPresent(GenerationOptions.self, forKey: .options)
            ?? GenerationOptions(),
          responseFormat: try container.decodeIfPresent(
            Transcript.ResponseFormat.self, forKey: .responseFormat)))
    case "toolCalls":
      self = .toolCalls(
        Transcript.ToolCalls(id: id, try container.decode([Transcript.ToolCall].self, forKey: .calls)))
    case "toolOutput":
      self = .toolOutput(
        Transcript.ToolOutput(
          id: id, toolName: try container.decode(String.self, forKey: .toolName),
          segments: try container.decode([Transcript.Segment].self, forKey: .segments),
          metadata: try container.decodeIfPresent([String: GeneratedContent].self, forKey: .metadata) ?? [:]))
    case "response":
      self = .response(
        Transcript.Response(
          id: id, assetIDs: try container.decodeIfPresent([String].self, forKey: .assetIDs) ?? [],
          segments: try container.decode([Transcript.Segment].self, forKey: .segments),
          metadata: try container.decodeIfPresent([String: GeneratedContent].self, forKey: .metadata) ?? [:]))
    case "reasoning":
      self = .reasoning(
        Transcript.Reasoning(
          id: id, segments: try container.decode([Transcript.Segment].self, forKey: .segments),
          signature: try container.decodeIfPresent(Data.self, forKey: .signature),
          metadata: try container.decodeIfPresent([String: GeneratedContent].self, forKey: .metadata) ?? [:]))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription:
          "unknown entry type \"\(type)\"; expected instructions, prompt, toolCalls, toolOutput, response or reasoning"
      )
    }
  }

  /// Encodes the entry with its `type`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    try container.encode(kindName, forKey: .type)
    try container.encode(id, forKey: .id)
    switch self {
    case .instructions(let entry):
      try entry.encode(to: encoder)
    case .prompt(let entry):
      try container.encode(entry.segments, forKey: .segments)
      try container.encode(entry.options, forKey: .options)
      try container.encodeIfPresent(entry.responseFormat, forKey: .responseFormat)
    case .toolCalls(let entry):
      try container.encode(entry.calls, forKey: .calls)
    case .toolOutput(let entry):
      try container.encode(entry.toolName, forKey: .toolName)
      try container.encode(entry.segments, forKey: .segments)
      if !entry.metadata.isEmpty { try container.encode(entry.metadata, forKey: .metadata) }
    case .response(let entry):
      try container.encode(entry.assetIDs, forKey: .assetIDs)
      try container.encode(entry.segments, forKey: .segments)
      if !entry.metadata.isEmpty { try container.encode(entry.metadata, forKey: .metadata) }
    case .reasoning(let entry):
      try container.encode(entry.segments, forKey: .segments)
      try container.encodeIfPresent(entry.signature, forKey: .signature)
      if !entry.metadata.isEmpty { try container.encode(entry.metadata, forKey: .metadata) }
    }
  }
}

extension Transcript.ToolCall: Codable {
  /// Decodes a call.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      toolName: try container.decode(String.self, forKey: .toolName),
      arguments: try container.decode(GeneratedContent.self, forKey: .arguments),
      metadata: try container.decodeIfPresent([String: GeneratedContent].self, forKey: .metadata) ?? [:])
  }

  /// Encodes a call; its arguments as JSON text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(toolName, forKey: .toolName)
    try container.encode(arguments, forKey: .arguments)
    if !metadata.isEmpty { try container.encode(metadata, forKey: .metadata) }
  }
}

extension Transcript.ToolDefinition: Codable {
  /// Decodes a tool definition.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    self.init(
      name: try container.decode(String.self, forKey: .name),
      description: try container.decode(String.self, forKey: .description),
      parameters: try container.decode(GenerationSchema.self, forKey: .parameters))
  }

  /// Encodes a tool definition, its parameters as JSON Schema.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(description, forKey: .description)
    try container.encode(parameters, forKey: .parameters)
  }
}

extension Transcript.ResponseFormat: Codable {
  /// Decodes a response format.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    self.init(schema: try container.decode(GenerationSchema.self, forKey: .schema))
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? name
  }

  /// Encodes a response format.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    try container.encode(name, forKey: .name)
    switch kind {
    case .schema(let schema): try container.encode(schema, forKey: .schema)
    }
  }
}

extension Transcript.Segment: Codable {
  /// Decodes a segment; its `type` says which kind.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "text":
      self = .text(
        Transcript.TextSegment(
          id: try container.decode(String.self, forKey: .id),
          content: try container.decode(String.self, forKey: .content)))
    case "structure":
      self = .structure(
        Transcript.StructuredSegment(
          id: try container.decode(String.self, forKey: .id),
          source: try container.decodeIfPresent(String.self, forKey: .source) ?? "",
          content: try container.decode(GeneratedContent.self, forKey: .content)))
    case "attachment":
      let image = try container.nestedContainer(keyedBy: FormKeys.self, forKey: .image)
      let attachment: Transcript.ImageAttachment
      if let url = try image.decodeIfPresent(URL.self, forKey: .url) {
        attachment = Transcript.ImageAttachment(url: url)
      } else {
        attachment = Transcript.ImageAttachment(
          data: try image.decode(Data.self, forKey: .data),
          mimeType: try image.decode(String.self, forKey: .mimeType))
      }
      self = .attachment(
        Transcript.AttachmentSegment(
          id: try container.decode(String.self, forKey: .id), content: .image(attachment),
          label: try container.decodeIfPresent(String.self, forKey: .label)))
    case "custom":
      let identifier = try container.decode(String.self, forKey: .customType)
      guard let customType = CustomSegmentRegistry.type(for: identifier) else {
        throw DecodingError.dataCorruptedError(
          forKey: .customType, in: container,
          debugDescription:
            "custom segment type \"\(identifier)\" is not registered; call Transcript.registerCustomSegmentType(_:) first"
        )
      }
      self = .custom(try customType.init(from: try container.superDecoder(forKey: .value)))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: "unknown segment type \"\(type)\"; expected text, structure, attachment or custom")
    }
  }

  /// Encodes a segment with its `type`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    switch self {
    case .text(let segment):
      try container.encode("text", forKey: .type)
      try container.encode(segment.id, forKey: .id)
      try container.encode(segment.content, forKey: .content)
    case .structure(let segment):
      try container.encode("structure", forKey: .type)
      try container.encode(segment.id, forKey: .id)
      try container.encode(segment.source, forKey: .source)
      try container.encode(segment.content, forKey: .content)
    case .attachment(let segment):
      try container.encode("attachment", forKey: .type)
      try container.encode(segment.id, forKey: .id)
      try container.encodeIfPresent(segment.label, forKey: .label)
      var image = container.nestedContainer(keyedBy: FormKeys.self, forKey: .image)
      switch segment.content {
      case .image(let attachment):
        switch attachment.source {
        case .data(let data, let mimeType):
          try image.encode(data, forKey: .data)
          try image.encode(mimeType, forKey: .mimeType)
        case .url(let url):
          try image.encode(url, forKey: .url)
        }
      }
    case .custom(let segment):
      try container.encode("custom", forKey: .type)
      try container.encode(segment.id, forKey: .id)
      try container.encode(type(of: segment).typeIdentifier, forKey: .customType)
      try segment.encode(to: container.superEncoder(forKey: .value))
    }
  }
}

extension Transcript.Instructions: Codable {
  /// Decodes instructions.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FormKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      segments: try container.decode([Transcript.Segment].self, forKey: .segments),
      toolDefinitions: try container.decode([Transcript.ToolDefinition].self, forKey: .toolDefinitions))
  }

  /// Encodes instructions.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FormKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(segments, forKey: .segments)
    try container.encode(toolDefinitions, forKey: .toolDefinitions)
  }
}
