// swift-tools-version:6.0
import PackageDescription

// An app-shaped package using Strata as an app would: a command-line program standing in for an app's
// launch. `.ci/run` builds and runs it (`--scratch-path Examples/.build`).
let package = Package(
    name: "RecipesApp",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v7)],
    dependencies: [
        .package(name: "Strata", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "RecipesApp",
            dependencies: [
                .product(name: "Strata", package: "Strata"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The model and hook files ship inside the app bundle.
            resources: [.copy("Resources/models"), .copy("Resources/migrations")]
        ),
    ]
)
