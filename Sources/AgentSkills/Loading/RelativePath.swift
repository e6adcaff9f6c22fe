/// Lexical handling of paths relative to a skill folder.
enum RelativePath {
  /// `path` with `.` and empty components removed and `..` applied, or `nil`
  /// when it is absolute, empty, or climbs above the folder.
  static func normalized(_ path: String) -> String? {
    guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains("\0") else { return nil }
    var components: [Substring] = []
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..":
        guard components.popLast() != nil else { return nil }
      default: components.append(component)
      }
    }
    return components.isEmpty ? nil : components.joined(separator: "/")
  }
}
