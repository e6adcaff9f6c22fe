// The umbrella module: `import ContextKit` brings in every ContextKit module.
@_exported import AgentSkills
@_exported import CacheAnalysis
@_exported import ChatCompletions
@_exported import HistoryCompression
@_exported import ModelSession
