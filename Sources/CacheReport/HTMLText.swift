/// Escaping for text placed in HTML and SVG (which is XML): the five
/// characters that could end an element or an attribute become entities,
/// so that any text, a cause's detail or a file name, shows as text.
///
/// ```swift
/// HTMLText.escaped(#"<b> & "quotes""#)  // &lt;b&gt; &amp; &quot;quotes&quot;
/// ```
public enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities.
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default:
        // Control characters other than tab and newline are not allowed in XML 1.0.
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
          scalar.value < 0x20, scalar != "\t", scalar != "\n", scalar != "\r"
        {
          result += " "
        } else {
          result.append(character)
        }
      }
    }
    return result
  }
}
