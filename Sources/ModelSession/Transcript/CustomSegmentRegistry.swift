import Synchronization

/// The custom segment types a transcript can decode, by type identifier.
enum CustomSegmentRegistry {
  private static let types = Mutex<[String: any CustomSegment.Type]>([:])

  static func register(_ type: any CustomSegment.Type) {
    types.withLock { $0[type.typeIdentifier] = type }
  }

  static func type(for identifier: String) -> (any CustomSegment.Type)? {
    types.withLock { $0[identifier] }
  }
}

extension Transcript {
  /// Registers a custom segment type, so that transcripts holding segments of
  /// that type decode back into it. Registering twice is harmless.
  public static func registerCustomSegmentType(_ type: any CustomSegment.Type) {
    CustomSegmentRegistry.register(type)
  }
}
