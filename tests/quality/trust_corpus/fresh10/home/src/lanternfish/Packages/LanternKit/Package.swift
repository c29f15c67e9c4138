// swift-tools-version:5.10
import PackageDescription

let package = Package(name: "LanternKit")
