// The umbrella module: `import ContextKit` brings in every ContextKit module.
@_exported import AgentSkills
@_exported import CacheAnalysis
@_exported import ChatCompletions
@_exported import HistoryCompression
@_exported import ModelSession
// Observation, so that app code can write `@Observable` for the objects its
// profiles read (the framework's documentation does) with only `import ContextKit`.
@_exported import Observation
