// swift-tools-version:5.10
import PackageDescription

// Lua is linked only into the products that embed it (the CLI, libcaluna, the
// tests). The `require "caluna"` module resolves Lua's symbols from the host
// interpreter: Debian's lua5.4 has Lua built in and exports it, so linking a
// second copy into the module would give two Lua runtimes in one process.
let linkLua: [LinkerSetting] = [.linkedLibrary("lua5.4")]

let package = Package(
    name: "caluna",
    products: [
        .library(name: "caluna", type: .dynamic, targets: ["CalunaC"]),
        .library(name: "caluna-lua", type: .dynamic, targets: ["CalunaLua"]),
        .executable(name: "caluna-cli", targets: ["caluna"]),
        .executable(name: "caluna-bench", targets: ["caluna-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CChipmunk", path: "Sources/CChipmunk",
                       providers: [.apt(["libchipmunk-dev"])]),
        .systemLibrary(name: "CLua", path: "Sources/CLua",
                       providers: [.apt(["liblua5.4-dev"])]),
        .target(name: "CalunaLuaShim", dependencies: ["CLua"], path: "Sources/CalunaLuaShim"),
        .target(name: "CalunaJPEG", path: "Sources/CalunaJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CalunaStack", path: "Sources/CalunaStack"),
        .target(name: "CalunaPixels", path: "Sources/CalunaPixels"),
        .target(name: "Caluna", dependencies: ["CCairo", "CChipmunk", "CalunaJPEG", "CalunaStack", "CalunaPixels"],
                path: "Sources/Caluna"),
        .target(name: "CalunaBridge", dependencies: ["Caluna"], path: "Sources/CalunaBridge"),
        .target(name: "CalunaLua", dependencies: ["CalunaBridge", "CalunaLuaShim", "CLua"],
                path: "Sources/CalunaLua"),
        .target(name: "CalunaC", dependencies: ["CalunaLua", "CalunaBridge"], path: "Sources/CalunaC",
                linkerSettings: linkLua),
        .executableTarget(name: "caluna",
                          dependencies: ["CalunaLua", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Sources/caluna", linkerSettings: linkLua),
        // Plain C programs the benchmarks run beside caluna (raw Chipmunk, C ABI loops).
        .target(name: "BenchPeers", dependencies: ["CalunaC"], path: "Sources/BenchPeers",
                cSettings: [.headerSearchPath("../../include")], linkerSettings: [.linkedLibrary("chipmunk")]),
        .executableTarget(name: "caluna-bench",
                          dependencies: ["Caluna", "CalunaBridge", "CalunaLua", "CLua", "CCairo", "BenchPeers"],
                          path: "Sources/caluna-bench", linkerSettings: linkLua),
        .testTarget(name: "CalunaTests", dependencies: ["Caluna", "CalunaBridge", "CalunaLua"],
                    path: "Tests/CalunaTests", linkerSettings: linkLua),
    ]
)
