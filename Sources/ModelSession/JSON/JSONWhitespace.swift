extension UInt8 {
  /// Whether the byte is JSON's whitespace between tokens: space, tab, line
  /// feed or carriage return (RFC 8259, section 2). Compared, not looked up in
  /// an array literal, which a debug build allocates for every byte.
  package var isJSONWhitespace: Bool {
    self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
  }
}
