/// Tells text resources from binary ones.
///
/// Common extensions decide without reading (`.md` is text, `.png` binary);
/// any other file is sniffed: its first bytes are text when they are valid
/// UTF-8 without NUL bytes. The read tool checks the bytes it hands out again,
/// so a mislabelled file is never given to the model as text.
enum ResourceContentClassifier {
  /// How many leading bytes a sniff looks at.
  static let sniffLength = 1024

  static let textExtensions: Set<String> = [
    "md", "markdown", "txt", "text", "rst", "adoc", "org", "csv", "tsv", "json", "jsonl", "yaml", "yml",
    "toml", "ini", "cfg", "conf", "xml", "html", "htm", "css", "scss", "svg", "tex", "log", "diff", "patch",
    "sql", "graphql", "proto", "env", "properties", "gitignore", "editorconfig",
    "swift", "py", "sh", "bash", "zsh", "fish", "ps1", "bat", "js", "mjs", "cjs", "ts", "tsx", "jsx", "rb",
    "go", "rs", "c", "h", "cc", "cpp", "hpp", "m", "mm", "java", "kt", "kts", "scala", "cs", "php", "pl",
    "lua", "r", "jl", "dart", "ex", "exs", "erl", "hs", "ml", "clj", "vue", "svelte", "tf", "nix", "mk",
    "cmake", "gradle", "dockerfile", "ipynb",
  ]

  static let binaryExtensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "icns", "tif", "tiff", "heic", "psd", "pdf", "zip",
    "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "whl", "woff", "woff2", "ttf", "otf", "eot",
    "mp3", "wav", "flac", "ogg", "m4a", "mp4", "mov", "webm", "avi", "mkv", "wasm", "so", "dylib", "dll",
    "exe", "o", "a", "class", "pyc", "docx", "xlsx", "pptx", "odt", "ods", "odp", "doc", "xls", "ppt",
    "sqlite", "db", "bin", "dat", "pkl", "npy", "npz", "onnx", "gguf", "safetensors", "pt",
  ]

  static let scriptExtensions: Set<String> = [
    "sh", "bash", "zsh", "fish", "py", "rb", "pl", "js", "mjs", "cjs", "ts", "ps1", "bat", "lua", "php",
  ]

  /// The content kind decided by the file's extension alone, or `nil` when
  /// the extension says nothing (no extension, or an unusual one).
  static func content(forPath path: String) -> SkillResource.Content? {
    let fileExtension = SkillResource.fileExtension(path)
    if textExtensions.contains(fileExtension) { return .text }
    if binaryExtensions.contains(fileExtension) { return .binary }
    return nil
  }

  /// Whether `bytes` read as text: valid UTF-8 (a character cut at the end
  /// is allowed when `isPrefix`) with no NUL byte.
  static func isText(_ bytes: some Collection<UInt8>, isPrefix: Bool) -> Bool {
    if bytes.contains(0) { return false }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var consumed = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): consumed += UTF8.width(scalar)
      case .emptyInput: return true
      case .error:
        // Only a multi-byte character cut off by the end of a prefix is forgiven.
        return isPrefix && isCutCharacter(bytes.dropFirst(consumed))
      }
    }
  }

  /// Whether `tail` is the start of one multi-byte UTF-8 character and nothing more.
  private static func isCutCharacter(_ tail: some Collection<UInt8>) -> Bool {
    guard let lead = tail.first else { return false }
    let expected =
      switch lead {
      case 0xC2...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF4: 4
      default: 0
      }
    return tail.count < expected && tail.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
  }
}
