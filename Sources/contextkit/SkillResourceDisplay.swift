import ContextKit
import Foundation

/// `contextkit skills show NAME --resource PATH`: one text file of a skill,
/// found as `read_skill_resource` finds it (a path in another letter case
/// names the one file that matches it, and a note says which file was read).
struct SkillResourceDisplay {
  let name: String
  let path: String
  let roots: SkillRoots
  let json: Bool

  /// `--json`: the file read, the path asked for, and the text.
  struct Output: Encodable {
    var skill: String
    var requestedPath: String
    var path: String
    var matchedIgnoringCase: Bool
    var text: String
  }

  /// The path names no resource, or several with case ignored.
  struct UnknownResource: Error, CustomStringConvertible {
    var skill: String
    var path: String
    var candidates: [String]
    var available: [String]
    var description: String {
      if !candidates.isEmpty {
        return "skill \"\(skill)\": no file is named \"\(path)\", and several match it when case is ignored: "
          + candidates.joined(separator: ", ") + "; give one of them"
      }
      let shown = available.prefix(50).joined(separator: ", ")
      return "skill \"\(skill)\": no file \"\(path)\" in the skill folder; its resources: "
        + (available.isEmpty
          ? "none" : shown + (available.count > 50 ? ", and \(available.count - 50) more" : ""))
    }
  }

  func run(console: Console) throws -> ExitCode {
    let (library, diagnostics) = try roots.load()
    console.printDiagnostics(diagnostics)
    guard let skill = library.skill(named: name) else {
      throw SkillDetails.UnknownSkill(name: name, available: library.names)
    }
    let match = skill.matchResource(path)
    guard let resource = match.resource else {
      let candidates: [String]
      if case .ambiguous(let found) = match { candidates = found.map(\.path) } else { candidates = [] }
      throw UnknownResource(
        skill: name, path: path, candidates: candidates, available: skill.resources.map(\.path))
    }
    var ignoringCase = false
    if case .ignoringCase = match { ignoringCase = true }
    if ignoringCase {
      console.printError(
        "no file is named \"\(path)\"; read \"\(resource.path)\", the one file that matches it when case is ignored"
      )
    }
    let data = try skill.contentsOfResource(resource.path)
    guard resource.isText, let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw SkillResourceError.binary(resource.path, skill: name, size: data.count)
    }
    if json {
      console.print(
        try JSONOutput.string(
          Output(
            skill: name, requestedPath: path, path: resource.path, matchedIgnoringCase: ignoringCase,
            text: text)))
    } else {
      console.print(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }
    return diagnostics.contains(where: \.isError) ? .invalidInput : .success
  }
}
