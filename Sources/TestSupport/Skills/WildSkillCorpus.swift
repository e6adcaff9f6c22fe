import Foundation

/// Skills written the way people write them for lenient agents, generated
/// from scratch: one ``Shape`` per kind of departure from the Agent Skills
/// format seen in public skill collections (a name that differs from its
/// folder, capitals, nested `metadata`, an `allowed-tools` list, unquoted
/// colons, ...), plus the few that no agent can load. No public skill's text
/// is used.
///
/// ```swift
/// try WildSkillCorpus.write(count: 2_000, at: root)   // every shape, round-robin
/// ```
public enum WildSkillCorpus {
  /// What the Agent Skills client guide's lenient rules do with a shape.
  public enum GuideOutcome: Sendable, Hashable {
    /// Loaded (with warnings where the shape breaks the format) under this name.
    case loads(name: String)
    /// Skipped: nothing an agent can use.
    case refused
  }

  /// One kind of `SKILL.md` seen in the wild.
  public enum Shape: String, Sendable, Hashable, CaseIterable {
    /// Follows the format: the control case.
    case conforming
    /// `name:` differs from the folder's name.
    case nameDiffersFromFolder
    /// Capitals in the name (`PDF-Tools`).
    case nameWithCapitals
    /// `_` and a leading digit in the name.
    case nameWithUnderscoreAndDigit
    /// A name with capitals and spaces that differs from the folder's (`Vector Search ...`).
    case nameWithSeveralProblems
    /// A name over 64 characters.
    case nameTooLong
    /// No `name:` at all: the folder's name is used.
    case nameMissing
    /// A description over 1,024 characters.
    case descriptionTooLong
    /// Nested mappings under `metadata`, in block style.
    case nestedMetadata
    /// `metadata: {tool: {...}}`, in flow style, with a list and a boolean inside.
    case flowMetadata
    /// `metadata.tags` as a list.
    case metadataList
    /// `allowed-tools` as a block list.
    case allowedToolsList
    /// `allowed-tools: [Read, Write]`.
    case allowedToolsFlowList
    /// Keys the format does not know (`version`, `author`, `user-invocable`).
    case unknownKeys
    /// `description: Use when: ...`, which YAML cannot read.
    case unquotedColon
    /// A description that goes on over a more-indented line holding `Use when: ...`.
    case unquotedColonOverTwoLines
    /// A character written as a JSON surrogate pair (`"\uD83D\uDD2D"`), which libyaml refuses.
    case surrogatePairEscape
    /// The body names `FORMS.md` and `Reference.md`; the files are `forms.md` and `reference.md`.
    case resourceInOtherCase
    /// Several departures at once, with CRLF line endings and a byte order mark.
    case mixed
    /// No front matter: a plain markdown file.
    case noFrontMatter
    /// YAML that does not parse, even with the unquoted-colon fallback.
    case brokenYAML
    /// No `description:`.
    case descriptionMissing
    /// `description: ""`.
    case descriptionEmpty
    /// A body that is not UTF-8 text.
    case bodyNotText

    /// What the client guide's lenient rules do with this shape (for a skill
    /// written at `folder`).
    public func guideOutcome(folder: String) -> GuideOutcome {
      switch self {
      case .noFrontMatter, .brokenYAML, .descriptionMissing, .descriptionEmpty, .bodyNotText: .refused
      case .nameDiffersFromFolder: .loads(name: "renamed-" + folder)
      case .nameWithCapitals: .loads(name: "PDF-Tools-" + folder)
      case .nameWithUnderscoreAndDigit: .loads(name: "3d_" + folder.replacingOccurrences(of: "-", with: "_"))
      case .nameWithSeveralProblems: .loads(name: "Vector Search " + folder)
      case .nameTooLong: .loads(name: folder + "-" + String(repeating: "x", count: 70))
      case .mixed: .loads(name: "Mixed_" + folder.replacingOccurrences(of: "-", with: "_"))
      default: .loads(name: folder)
      }
    }
  }

  /// The folder name of the skill at `index` (unique, a valid skill name).
  public static func folderName(index: Int, shape: Shape) -> String {
    "wild-\(index)-" + shape.rawValue.lowercased()
  }

  /// Writes `count` skills under `root` (created if needed), the shapes in
  /// turn (`Shape.allCases[index % count]`), each in its own folder named by
  /// ``folderName(index:shape:)``, with a body of about `bodyBytes` bytes. The
  /// same arguments always write the same bytes. Returns each folder's name and shape.
  @discardableResult
  public static func write(
    count: Int, at root: URL, bodyBytes: Int = 2 * 1024
  ) throws -> [(folder: String, shape: Shape)] {
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    var written: [(String, Shape)] = []
    for index in 0..<count {
      let shape = Shape.allCases[index % Shape.allCases.count]
      let folder = folderName(index: index, shape: shape)
      try writeSkill(shape, folder: folder, under: root, bodyBytes: bodyBytes)
      written.append((folder, shape))
    }
    return written
  }

  /// Writes one skill of `shape` as `root/folder`: its `SKILL.md` and the
  /// files its body links to. Returns the skill folder.
  @discardableResult
  public static func writeSkill(
    _ shape: Shape, folder: String, under root: URL, bodyBytes: Int = 2 * 1024
  ) throws -> URL {
    let url = root.appendingPathComponent(folder, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try skillFile(shape, folder: folder, bodyBytes: bodyBytes).write(
      to: url.appendingPathComponent("SKILL.md"))
    for (path, text) in resources(shape) {
      let file = url.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return url
  }

  /// The files beside `SKILL.md` for a shape.
  static func resources(_ shape: Shape) -> [(String, String)] {
    switch shape {
    case .resourceInOtherCase:
      [
        ("forms.md", "# Forms\n\nFill the fields in order.\n"),
        ("reference.md", "# Reference\n\nAll options.\n"),
      ]
    default:
      [("references/guide.md", "# Guide\n\nThe details.\n")]
    }
  }

  /// The bytes of the `SKILL.md` of a skill of `shape` in `folder`.
  public static func skillFile(_ shape: Shape, folder: String, bodyBytes: Int = 2 * 1024) -> Data {
    let description = "Checks \(folder) inputs and reports what is missing. Use when asked to review one."
    let yaml: String
    switch shape {
    case .conforming:
      yaml = "name: \(folder)\ndescription: \(description)\nlicense: MIT\nmetadata:\n  author: corpus"
    case .nameDiffersFromFolder:
      yaml = "name: renamed-\(folder)\ndescription: \(description)"
    case .nameWithCapitals:
      yaml = "name: PDF-Tools-\(folder)\ndescription: \(description)"
    case .nameWithUnderscoreAndDigit:
      yaml = "name: 3d_\(folder.replacingOccurrences(of: "-", with: "_"))\ndescription: \(description)"
    case .nameWithSeveralProblems:
      yaml = "name: Vector Search \(folder)\ndescription: \(description)"
    case .nameTooLong:
      yaml = "name: \(folder)-\(String(repeating: "x", count: 70))\ndescription: \(description)"
    case .nameMissing:
      yaml = "description: \(description)"
    case .descriptionTooLong:
      let long = Array(repeating: "Reports each missing field with its line and a fix.", count: 22)
      yaml = "name: \(folder)\ndescription: \(description) \(long.joined(separator: " "))"
    case .nestedMetadata:
      yaml = """
        name: \(folder)
        description: \(description)
        metadata:
          version: "1.0"
          runner:
            emoji: "🔧"
            requires:
              bins:
                - git
                - jq
        """
    case .flowMetadata:
      yaml = """
        name: \(folder)
        description: \(description)
        metadata: {runner: {always: true, requires: {bins: [git]}}, author: corpus}
        """
    case .metadataList:
      yaml =
        "name: \(folder)\ndescription: \(description)\nmetadata:\n  tags: [review, inputs]\n  author: corpus"
    case .allowedToolsList:
      yaml =
        "name: \(folder)\ndescription: \(description)\nallowed-tools:\n  - Read\n  - Grep\n  - Bash(git:*)"
    case .allowedToolsFlowList:
      yaml = "name: \(folder)\ndescription: \(description)\nallowed-tools: [Read, Write]"
    case .unknownKeys:
      yaml =
        "name: \(folder)\ndescription: \(description)\nversion: 1.2.0\nauthor: corpus\nuser-invocable: true"
    case .surrogatePairEscape:
      yaml = "name: \(folder)\ndescription: \(description)\nmetadata:\n  emoji: \"\\uD83D\\uDD2D\""
    case .unquotedColon:
      yaml = "name: \(folder)\ndescription: Checks inputs. Use when: the user asks for a review of \(folder)"
    case .unquotedColonOverTwoLines:
      yaml =
        "name: \(folder)\ndescription: Checks inputs.\n  Use when: the user asks for a review of \(folder)"
    case .resourceInOtherCase:
      yaml = "name: \(folder)\ndescription: \(description)"
    case .mixed:
      yaml = """
        name: Mixed_\(folder.replacingOccurrences(of: "-", with: "_"))
        description: Triggers: review, check. \(description)
        version: 2
        metadata:
          tags: [a, b]
          nested: {deep: {deeper: 1}}
        allowed-tools:
          - Read
        """
    case .noFrontMatter:
      return Data(body(folder: folder, shape: shape, bytes: bodyBytes).utf8)
    case .brokenYAML:
      yaml = "name: \(folder)\ndescription: [unclosed, list\n  of: things"
    case .descriptionMissing:
      yaml = "name: \(folder)\nlicense: MIT"
    case .descriptionEmpty:
      yaml = "name: \(folder)\ndescription: \"\""
    case .bodyNotText:
      var data = Data("---\nname: \(folder)\ndescription: \(description)\n---\n# Title\n".utf8)
      data.append(contentsOf: [0xFF, 0xFE, 0x00, 0x81, 0xC3, 0x28])
      return data
    }
    var text = "---\n\(yaml)\n---\n" + body(folder: folder, shape: shape, bytes: bodyBytes)
    if shape == .mixed {
      text = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
    }
    return Data(text.utf8)
  }

  private static func body(folder: String, shape: Shape, bytes: Int) -> String {
    var text = "# \(folder)\n\n"
    if shape == .resourceInOtherCase {
      text += "Read [the forms](FORMS.md) first, then see Reference.md for every option.\n"
    } else {
      text += "See [the guide](references/guide.md) for the details.\n"
    }
    var step = 0
    while text.utf8.count < bytes {
      step += 1
      text += """

        ## Step \(step)

        Compare the input with the expected shape. Name each missing field, the line it belongs on,
        and the smallest change that adds it. Keep the user's identifiers exactly as written.

        """
    }
    return text
  }
}
