// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ContextKit",
  products: [
    .library(name: "ModelSession", targets: ["ModelSession"]),
    .library(name: "ChatCompletions", targets: ["ChatCompletions"]),
    .executable(name: "contextkit", targets: ["contextkit"]),
    .executable(name: "contextkit-bench", targets: ["contextkit-bench"]),
  ],
  targets: [
    .target(name: "ModelSession"),
    .target(name: "ChatCompletions", dependencies: ["ModelSession"]),
    .target(name: "TestSupport", dependencies: ["ModelSession"]),
    .executableTarget(name: "contextkit", dependencies: ["ModelSession"]),
    .executableTarget(name: "contextkit-bench", dependencies: ["ModelSession", "ChatCompletions"]),
    .testTarget(name: "ModelSessionTests", dependencies: ["ModelSession", "TestSupport"]),
    .testTarget(
      name: "ChatCompletionsTests",
      dependencies: ["ChatCompletions", "TestSupport"],
      exclude: ["Fixtures", "FaultServer"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
