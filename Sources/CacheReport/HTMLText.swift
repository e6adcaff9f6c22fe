/// Escaping for text placed in HTML and SVG (which is XML): the five
/// characters that could end an element or an attribute become entities,
/// so that any text, a cause's detail or a file name, shows as text.
///
/// ```swift
/// HTMLText.escaped(#"<b> & "quotes""#)  // &lt;b&gt; &amp; &quot;quotes&quot;
/// ```
public enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities.
  ///
  /// The text is escaped one Unicode scalar at a time, not one `Character`:
  /// a quote followed by a combining mark (`"` U+0338) is one `Character` but
  /// still ends an attribute in a browser, so it must be escaped too.
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        // Control characters and U+FFFE/U+FFFF are not allowed in XML 1.0.
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          result += " "
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
