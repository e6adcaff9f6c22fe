extension JSONParser {
  /// The stack sizes and position when a step began.
  struct StepStart {
    var position: Int
    var step: Step
    var containerCount: Int
    var valueCount: Int
    var keyCount: Int
  }

  /// The parser's state at the start of the token that the input cut short:
  /// enough to continue when more text arrives, without reading again what
  /// came before.
  struct Checkpoint: Sendable {
    var position = 0
    var step = Step.expectingValue
    var containers: [OpenContainer] = []
    var values: [GeneratedContent] = []
    var keys: [String] = []
  }

  /// Creates a streaming parser that continues from `checkpoint` over `bytes`,
  /// which hold the text the checkpoint was taken in, and more.
  init(bytes: UnsafeBufferPointer<UInt8>, resumingFrom checkpoint: Checkpoint) {
    self.init(bytes: bytes, isPartial: true)
    isStreaming = true
    position = checkpoint.position
    initialStep = checkpoint.step
    containers = checkpoint.containers
    values = checkpoint.values
    keys = checkpoint.keys
  }

  mutating func recordStepStart(_ step: Step) {
    stepStart = StepStart(
      position: position, step: step, containerCount: containers.count, valueCount: values.count,
      keyCount: keys.count)
  }

  /// Saves the state as it was when the step that reached the end began. A
  /// step only pushes onto the stacks until it completes, so truncating them
  /// undoes it.
  mutating func saveCheckpoint() {
    guard let stepStart else { return }
    checkpoint = Checkpoint(
      position: stepStart.position, step: stepStart.step,
      containers: Array(containers[..<stepStart.containerCount]),
      values: Array(values[..<stepStart.valueCount]), keys: Array(keys[..<stepStart.keyCount]))
  }
}
