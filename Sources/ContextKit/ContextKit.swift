// The umbrella module: `import ContextKit` brings in every ContextKit module.
@_exported import AgentSkills
@_exported import HistoryCompression
@_exported import ModelSession

/// ContextKit's release.
public enum ContextKitVersion {
  /// The version of this build of ContextKit.
  public static let current = "0.1.0"
}
