// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ContextKit",
  products: [
    .library(name: "ContextKit", targets: ["ContextKit"]),
    .library(name: "ModelSession", targets: ["ModelSession"]),
    .executable(name: "contextkit", targets: ["contextkit"]),
    .executable(name: "contextkit-bench", targets: ["contextkit-bench"]),
  ],
  targets: [
    .target(name: "ModelSession"),
    .target(name: "TestSupport", dependencies: ["ModelSession"]),
    .target(name: "ContextKit", dependencies: ["ModelSession"]),
    .executableTarget(name: "contextkit", dependencies: ["ContextKit"]),
    .executableTarget(name: "contextkit-bench", dependencies: ["ModelSession"]),
    .testTarget(name: "ModelSessionTests", dependencies: ["ModelSession", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
