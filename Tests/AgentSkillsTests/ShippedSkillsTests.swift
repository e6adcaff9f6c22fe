import AgentSkills
import Foundation
import Testing

/// The repository's `SkillsLibrary/` folder.
let shippedSkillsFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("SkillsLibrary", isDirectory: true)

@Suite(.timeLimit(.minutes(10))) struct ShippedSkillsTests {
  @Test(.timeLimit(.minutes(10))) func `every shipped skill is valid in strict mode`() throws {
    let library = try SkillsLibrary(root: shippedSkillsFolder, mode: .strict)
    #expect(library.diagnostics.isEmpty, "\(library.diagnostics)")
    #expect(library.loadedSkills.count >= 8)
    let instructions = library.loadedSkills.filter { $0.activation == .instructions }
    #expect(instructions.count >= 2)
    #expect(instructions.contains { $0.allowsDeactivation })
    #expect(library.loadedSkills.filter { !$0.links.isEmpty && !$0.resources.isEmpty }.count >= 3)
    for skill in library.loadedSkills {
      #expect(skill.body.count > 800, "\(skill.name) has a thin body")
      for link in skill.links { #expect(skill.resources.map(\.path).contains(link.path)) }
    }
  }

  @Test(
    .timeLimit(.minutes(10)),
    .enabled(
      if: referenceValidator != nil,
      "the skills-ref validator is not installed; run scripts/install-dependencies (pip install skills-ref)"))
  func `every shipped skill passes the skills-ref reference validator`() throws {
    let validator = try #require(referenceValidator)
    let folders = try FileManager.default.contentsOfDirectory(atPath: shippedSkillsFolder.path)
      .filter { name in
        var isDirectory: ObjCBool = false
        let path = shippedSkillsFolder.appendingPathComponent(name).path
        return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
          && isDirectory.boolValue
      }
      .sorted()
    #expect(folders.count >= 8)
    for folder in folders {
      let process = Process()
      process.executableURL = validator
      process.arguments = ["validate", shippedSkillsFolder.appendingPathComponent(folder).path]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(folder): \(text)")
    }
  }
}
