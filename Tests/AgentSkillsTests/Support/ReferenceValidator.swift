import AgentSkills
import Foundation

/// The reference validator's command (`skills-ref` or, as the PyPI package names it, `agentskills`).
let referenceValidator: URL? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for name in ["skills-ref", "agentskills"] {
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
  }
  return nil
}()
