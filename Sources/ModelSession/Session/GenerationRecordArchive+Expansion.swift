extension GenerationRecordArchive {
  /// The most bytes one generation of a records file may stand for: the
  /// bytes of the lines of every entry its transcripts, stages and output
  /// name, each counted as often as it is named (64 MiB).
  ///
  /// The archive writes each entry once and refers to it by number, so a
  /// small file can name one large entry many times; the reader counts what
  /// the references stand for while it reads them and refuses a generation
  /// past this bound, naming its line, before it copies anything.
  public static let maximumGenerationExpansion = 64 << 20

  /// The most bytes a whole records file may stand for, over all its
  /// generations and instructions entries, counted as for
  /// ``maximumGenerationExpansion`` (1 GiB, the largest file read).
  public static let maximumExpansion = 1 << 30

  /// What the lines read so far stand for, in bytes, against the bounds.
  struct ExpansionBudget {
    /// The bytes stood for so far, over the file.
    private(set) var size = 0
    let limit: Int
    let generationLimit: Int

    init(
      limit: Int = GenerationRecordArchive.maximumExpansion,
      generationLimit: Int = GenerationRecordArchive.maximumGenerationExpansion
    ) {
      self.limit = limit
      self.generationLimit = generationLimit
    }

    /// The budget of one generation (or instructions entry), within what the file has left.
    func generation() -> Generation {
      Generation(limit: min(generationLimit, limit - size), fileLimited: limit - size < generationLimit)
    }

    /// Adds a line's size to the file's.
    mutating func charge(_ bytes: Int, for what: String) throws(LineError) {
      guard bytes <= limit - size else {
        throw LineError(
          description: "\(what) would bring what the file stands for past \(limit) bytes "
            + "(GenerationRecordArchive.maximumExpansion: each reference counts the bytes it names again)")
      }
      size += bytes
    }

    /// One generation's count, stopped at its bound before anything past it is copied.
    struct Generation {
      private(set) var size = 0
      let limit: Int
      /// Whether `limit` is what the file has left rather than a generation's bound.
      let fileLimited: Bool

      mutating func charge(_ bytes: Int, for what: String) throws(LineError) {
        guard bytes <= limit - size else {
          throw LineError(
            description: fileLimited
              ? "\(what) would bring what the file stands for past its bound "
                + "(GenerationRecordArchive.maximumExpansion: each reference counts the bytes it names again)"
              : "\(what) stands for more than \(limit) bytes "
                + "(GenerationRecordArchive.maximumGenerationExpansion: each reference counts the bytes it names again)"
          )
        }
        size += bytes
      }
    }
  }
}
