import ModelSession

/// A cause's detail, made from the fields of the note that explains it (never
/// from the note's message, which is for a person and may change): the skills
/// switched or the catalog's changes for rewritten instructions, the entries
/// dropped or summarized and where the verbatim history starts for rewritten
/// history. `nil` when the note has none of those fields (a record written
/// before notes carried fields, a note of the app's own).
enum NoteCauseDetail {
  /// `activated reports; deactivated tone`, or `catalog added a; removed b; description changed for c`.
  static func instructions(_ note: GenerationNote) -> String? {
    var switched: [String] = []
    append(note.names(.activated), as: "activated", to: &switched)
    append(note.names(.deactivated), as: "deactivated", to: &switched)
    var catalog: [String] = []
    append(note.names(.added), as: "added", to: &catalog)
    append(note.names(.removed), as: "removed", to: &catalog)
    append(note.names(.edited), as: "description changed for", to: &catalog)
    if !catalog.isEmpty { switched.append("catalog " + catalog.joined(separator: "; ")) }
    return switched.isEmpty ? nil : switched.joined(separator: "; ")
  }

  /// `dropped 6 entries after 2 pinned; verbatim from entry p4`, `summarized 6
  /// entries; verbatim from entry p4`, `completed tool calls dropped from entry t1`.
  static func history(_ note: GenerationNote) -> String? {
    var parts: [String] = []
    var entries: [String] = []
    if let dropped = note.counts[.entriesDropped] { entries.append("dropped \(count(dropped, "entry"))") }
    if let summarized = note.counts[.entriesSummarized] {
      entries.append("summarized \(count(summarized, "entry"))")
    }
    if !entries.isEmpty {
      parts.append(
        entries.joined(separator: ", ") + (note.counts[.pinnedEntries].map { " after \($0) pinned" } ?? ""))
    }
    if let budget = note.counts[.budget], note.names(.firstKeptEntry).first != nil, entries.isEmpty {
      parts.append("fitted to \(budget) tokens")
    }
    if let first = note.names(.firstDroppedEntry).first {
      parts.append("completed tool calls dropped from entry \(first)")
    }
    if let first = note.names(.firstKeptEntry).first { parts.append("verbatim from entry \(first)") }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  private static func append(_ names: [String], as verb: String, to parts: inout [String]) {
    if !names.isEmpty { parts.append("\(verb) \(names.joined(separator: ", "))") }
  }

  private static func count(_ value: Int, _ noun: String) -> String {
    value == 1 ? "1 \(noun)" : "\(value) \(noun == "entry" ? "entries" : noun + "s")"
  }
}
