import Caluna
import CLua

/// The Lua side of chapter 6's layer kinds: each kind's methods and helper
/// objects live in its own file (LuaShapeLayer.swift, …) and register here.
enum LuaSpecialisedLayers {
    /// Called once per state, after the layer metatables exist.
    static func register(_ L: OpaquePointer) {
        LuaPixelBufferLayer.register(L)
        LuaTextLayer.register(L)
        LuaEmitterLayer.register(L)
        LuaScrollLayer.register(L)
    }
}

extension LayerKind {
    /// The class's name in the Lua module: "Layer", "ShapeLayer", "PixelBufferLayer".
    var luaName: String { className.hasPrefix("CA") ? String(className.dropFirst(2)) : className }

    /// A kind from its Lua name or its Core Animation class name.
    init?(luaName: String) {
        guard let k = LayerKind.allCases.first(where: { $0.luaName == luaName || $0.className == luaName }) else { return nil }
        self = k
    }
}
