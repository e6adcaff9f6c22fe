extension EndpointConfiguration {
  /// The headers an endpoint adds to every request, set over the defaults one
  /// field at a time; names are case-insensitive (`"user-agent"` replaces
  /// the default `User-Agent`).
  ///
  /// It is public because it is the type of
  /// ``EndpointConfiguration/additionalHeaders``, and a dictionary would
  /// print its values: the description, debug description and mirror of
  /// this value show the values of credential headers (`Authorization`,
  /// `Cookie`, and any name containing `key`, `token`, `secret`, `auth`,
  /// `pass`, `session` or `signature`) as `<redacted>`.
  ///
  /// ```swift
  /// var endpoint = EndpointConfiguration(baseURL: url, additionalHeaders: ["X-Org": "acme"])
  /// endpoint.additionalHeaders["x-org"] = "other"  // replaces X-Org
  /// endpoint.additionalHeaders = ["Ocp-Apim-Subscription-Key": key]
  /// ```
  public struct Headers: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
  {
    /// The fields in the order they were first set.
    package var fields: HTTPHeaderFields

    /// Creates headers from name-value pairs; of two names that differ only
    /// in case, the one that sorts last wins.
    public init(_ fields: [String: String] = [:]) {
      self.fields = HTTPHeaderFields(fields)
    }

    /// Creates headers from a dictionary literal, in the literal's order;
    /// of two names that differ only in case, the later one wins.
    public init(dictionaryLiteral elements: (String, String)...) {
      fields = HTTPHeaderFields(orderedFields: elements)
    }

    /// The value of the header with this name in any case, or `nil`; setting `nil` removes it.
    public subscript(name: String) -> String? {
      get { fields[name] }
      set { fields[name] = newValue }
    }

    /// The header names, in the order they were first set, each as last spelled.
    public var names: [String] {
      fields.fields.map(\.name)
    }

    /// The headers as `name: value` pairs, credential values shown as `<redacted>`.
    public var description: String { fields.description }

    /// The same as ``description``: credential values are never shown.
    public var debugDescription: String { fields.debugDescription }

    /// A mirror of the headers with credential values redacted.
    public var customMirror: Mirror { fields.customMirror }
  }
}
