/// Finds the skills a user names in a prompt as `/name`.
///
/// The grammar: a `/` at the start of the text, or after whitespace or an
/// opening `(`, `[`, `{`, `"` or `'`; then a name that follows the Agent Skills
/// naming rules (1–64 characters of `a-z`, `0-9` and `-`, no leading, trailing
/// or doubled `-`); then the end of the text or whitespace, optionally after
/// closing punctuation (`.`, `,`, `;`, `:`, `!`, `?`, `)`, `]`, `}`, `"`, `'`).
/// So `/reviewing-sql`, `Use /reviewing-sql.` and `(/reviewing-sql)` name
/// `reviewing-sql`, while `src/reviewing-sql`, `/reviewing-sql/x`,
/// `/reviewing-sql.md`, `https://x.org/reviewing-sql` and `/Reviewing-SQL` name
/// nothing. Names are returned in the order they first appear, each once.
enum SlashCommandScanner {
  /// The names written as `/name` in `text`, in order of first appearance, without repeats.
  static func names(in text: String) -> [String] {
    let scalars = Array(text.unicodeScalars)
    var names: [String] = []
    var seen: Set<String> = []
    var index = 0
    while index < scalars.count {
      guard scalars[index] == "/", index == 0 || opensWord(scalars[index - 1]) else {
        index += 1
        continue
      }
      var end = index + 1
      while end < scalars.count, isNameScalar(scalars[end]) { end += 1 }
      var after = end
      while after < scalars.count, closesWord(scalars[after]) { after += 1 }
      let standsAlone = after == scalars.count || scalars[after].properties.isWhitespace
      if standsAlone, end > index + 1 {
        var name = ""
        name.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
        if FrontMatterReader.isValidName(name), seen.insert(name).inserted { names.append(name) }
      }
      index = max(end, index + 1)
    }
    return names
  }

  private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
  }

  private static func opensWord(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || "([{\"'".unicodeScalars.contains(scalar)
  }

  private static func closesWord(_ scalar: Unicode.Scalar) -> Bool {
    ".,;:!?)]}\"'".unicodeScalars.contains(scalar)
  }
}
