// swift-tools-version:6.0
import PackageDescription

// An application's own `strata` (named `own-strata`: a product may not share the name of the dependency's `strata`):
// the stock command line (StrataCLI) with the application's Swift stages
// registered. Built and run by .ci/run through check.sh.
let package = Package(
    name: "OwnStrata",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "own-strata", targets: ["OwnStrata"]),
    ],
    dependencies: [
        .package(name: "Strata", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "OwnStrata", dependencies: [
            .product(name: "Strata", package: "Strata"),
            .product(name: "StrataCLI", package: "Strata"),
        ]),
    ]
)
