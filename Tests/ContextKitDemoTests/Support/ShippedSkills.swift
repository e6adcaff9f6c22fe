import AgentSkills
import Foundation

/// The shipped skills library (this file is Tests/ContextKitDemoTests/Support/ShippedSkills.swift).
let shippedSkills: [Skill] = {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SkillsLibrary")
  return (try? SkillsLibrary(root: root).skills) ?? []
}()
