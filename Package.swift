// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Strata",
    // GRDB 7.10.0's minimums, so an app on any of them can add Strata next to its own GRDB.
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v7)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataCLI", targets: ["StrataCLI"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .executable(name: "strata", targets: ["strata"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
    ],
    targets: [
        // Pure core: YAML → Model, predicates, mapping, plans, SQL text. Never opens a database.
        .target(name: "StrataCore", dependencies: [.product(name: "Yams", package: "Yams")]),
        // The SQLite layer and orchestration.
        .target(name: "Strata", dependencies: ["StrataCore", "CSQLiteSettings", .product(name: "GRDB", package: "GRDB.swift")]),
        // The one SQLite setting Swift cannot make itself: sqlite3_config is variadic (SQLiteMemoryStatistics).
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The PostgreSQL engine (SPEC §14.2): the same plans, rendered for PostgreSQL and run through PostgresNIO.
        // Its own target, so that the SQLite engine (and an app that only uses SQLite) never depends on it.
        .target(name: "StrataPostgres", dependencies: [
            "Strata", "StrataCore", .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The command line as a library, so that an application can build its own `strata` with its Swift stages.
        .target(name: "StrataCLI", dependencies: [
            "Strata", "StrataPostgres",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "strata", dependencies: ["Strata", "StrataCLI"]),
        // Benchmarks/bench.py's object-by-object anchor (fetch, change, save each); not part of the library.
        .executableTarget(name: "strata-bench-objects", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // An application's own `strata` with Swift stages registered, for StagesCLITests.
        .executableTarget(name: "strata-stages-fixture", dependencies: ["Strata", "StrataCLI"], path: "Tests/StagesFixture"),
        // What both test targets use: temporary directories removed at exit, waiting for events.
        .target(name: "StrataTestSupport", path: "Tests/StrataTestSupport"),
        .testTarget(name: "StrataTests", dependencies: ["Strata", "StrataTestSupport"], resources: [.copy("Fixtures")]),
        // PostgreSQL stores against a throwaway server (StrataTestSupport's PostgresTestServer); skipped without one.
        .testTarget(name: "StrataPostgresTests", dependencies: ["StrataPostgres", "StrataTestSupport"]),
        .testTarget(name: "StrataCLITests", dependencies: ["Strata", "StrataCLI", "strata", "strata-stages-fixture", "StrataTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        // The library as an application sees it: GRDB and Strata imported together, public API only.
        .testTarget(name: "StrataConsumerTests", dependencies: ["Strata", "StrataPostgres", .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
