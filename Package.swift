// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ContextKit",
  products: [
    .library(name: "ContextKit", targets: ["ContextKit"]),
    .library(name: "ModelSession", targets: ["ModelSession"]),
    .library(name: "AgentSkills", targets: ["AgentSkills"]),
    .library(name: "HistoryCompression", targets: ["HistoryCompression"]),
    .library(name: "HTTPStreaming", targets: ["HTTPStreaming"]),
    .library(name: "ChatCompletions", targets: ["ChatCompletions"]),
    .library(name: "CacheAnalysis", targets: ["CacheAnalysis"]),
    .library(name: "CacheReport", targets: ["CacheReport"]),
    .executable(name: "contextkit", targets: ["contextkit"]),
    .executable(name: "contextkit-bench", targets: ["contextkit-bench"]),
  ],
  targets: [
    .target(name: "ModelSession"),
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]
    ),
    .systemLibrary(
      name: "CMark",
      pkgConfig: "libcmark",
      providers: [.apt(["libcmark-dev"])]
    ),
    // A header-only shim: reading a directory's entries without opendir's allocation.
    .systemLibrary(name: "CDirectoryEntries"),
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    .target(name: "AgentSkills", dependencies: ["ModelSession", "CYAML", "CMark", "CDirectoryEntries"]),
    .target(name: "HistoryCompression", dependencies: ["ModelSession"]),
    // Provider-neutral HTTP streaming: transports (libcurl, URLSession), server-sent events,
    // limits, redirects, redaction, the endpoint. A wire format sits on top of it.
    .target(
      name: "HTTPStreaming",
      dependencies: ["ModelSession", .target(name: "CCurl", condition: .when(platforms: [.linux]))]),
    .target(name: "ChatCompletions", dependencies: ["ModelSession", "HTTPStreaming"]),
    .target(name: "CacheAnalysis", dependencies: ["ModelSession"]),
    .target(name: "CacheReport", dependencies: ["ModelSession", "CacheAnalysis"]),
    // The demo's scenarios, corpus and strategies: used by the executables, not a product.
    .target(
      name: "ContextKitDemo",
      dependencies: [
        "ModelSession", "AgentSkills", "HistoryCompression", "CacheAnalysis", "CacheReport",
        "ChatCompletions", "DemoSupport",
      ]),
    // The demo's replay model, summarizer and seeded generator: linked by the `contextkit`
    // executable, so it holds no test support.
    .target(name: "DemoSupport", dependencies: ["ModelSession"]),
    // The tests' scripted model, tools and fixtures (re-exports DemoSupport).
    .target(name: "TestSupport", dependencies: ["ModelSession", "DemoSupport"]),
    // The live tests' lease on the local model servers (imports Testing: test targets only).
    .target(name: "LocalServerSupport"),
    .target(
      name: "ContextKit",
      dependencies: ["ModelSession", "AgentSkills", "HistoryCompression", "ChatCompletions", "CacheAnalysis"]),
    .executableTarget(
      name: "contextkit", dependencies: ["ContextKit", "CacheReport", "ContextKitDemo", "DemoSupport"]),
    .executableTarget(
      name: "contextkit-bench",
      dependencies: [
        "ModelSession", "AgentSkills", "HistoryCompression", "ChatCompletions", "TestSupport",
        "ContextKitDemo", "CacheReport", "CMark",
      ]),
    .testTarget(
      name: "ModelSessionTests", dependencies: ["ModelSession", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(
      name: "AgentSkillsTests",
      dependencies: [
        "AgentSkills", "ChatCompletions", "HistoryCompression", "TestSupport", "LocalServerSupport",
      ]),
    .testTarget(
      name: "ContextKitCommandTests",
      dependencies: ["contextkit", "CacheAnalysis", "CacheReport", "TestSupport", "LocalServerSupport"]),
    .testTarget(
      name: "CacheAnalysisTests",
      dependencies: ["CacheAnalysis", "HistoryCompression", "AgentSkills", "TestSupport"]),
    .testTarget(
      name: "HistoryCompressionTests", dependencies: ["HistoryCompression", "ModelSession", "TestSupport"]),
    .testTarget(
      name: "ChatCompletionsTests",
      dependencies: [
        "ChatCompletions", "HTTPStreaming", "ModelSession", "HistoryCompression", "AgentSkills",
        "TestSupport", "LocalServerSupport",
      ],
      exclude: ["Fixtures", "FaultServer"]
    ),
    .testTarget(
      name: "ContextKitDemoTests",
      dependencies: [
        "ContextKitDemo", "CacheReport", "CacheAnalysis", "HistoryCompression", "ModelSession",
        "ChatCompletions",
        "AgentSkills", "TestSupport", "LocalServerSupport",
      ]),
    // contextkit-bench's statistics, report lines and options (the executable's internals).
    .testTarget(name: "BenchmarkTests", dependencies: ["contextkit-bench"]),
    // README.md's examples as code: compiled, run, and compared with the README's blocks.
    .testTarget(
      name: "ReadmeExampleTests", dependencies: ["ContextKit", "TestSupport", "LocalServerSupport"]),
    // App code as a new app target compiles it: default main-actor isolation.
    .testTarget(
      name: "MainActorAppTests", dependencies: ["ContextKit", "TestSupport"],
      swiftSettings: [.defaultIsolation(MainActor.self)]),
  ],
  swiftLanguageModes: [.v6]
)
