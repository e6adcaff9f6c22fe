import AgentSkills
import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// A tool that answers with a fixed, long text: it fills the history.
struct ReportTool: Tool {
  let name = "fetch_report"
  let description = "Fetches the long report."
  let text: String
  var parameters: GenerationSchema {
    (try? GenerationSchema(root: DynamicGenerationSchema(name: "Empty", properties: []), dependencies: []))
      ?? String.generationSchema
  }
  func call(arguments: GeneratedContent) async throws -> String { text }
}
