/// A layer that follows a body: after the steps of each frame its position
/// becomes the body's position and its transform the body's rotation, with
/// actions off (a layer that animated towards each new position would lag).
///
/// With the identity mapping the layer's superlayer shares the world's
/// coordinates: a y-down container for a world with gravity +y, or — the
/// book's way — a geometryFlipped container for Chipmunk's y-up world. A
/// mapping places the world in an ordinary container instead:
/// position = origin + scale·(x, ±y), and with flipY the angle changes sign.
public struct LayerMapping: Equatable, Sendable {
    public var origin = Point.zero
    /// Points per world unit.
    public var scale = 1.0
    /// The world is y-up and the container y-down.
    public var flipY = false
    /// The layer turns with the body (false: it only moves).
    public var rotates = true
    public init(origin: Point = .zero, scale: Double = 1, flipY: Bool = false, rotates: Bool = true) {
        self.origin = origin; self.scale = scale; self.flipY = flipY; self.rotates = rotates
    }
    public static let identity = LayerMapping()

    func checked() throws -> LayerMapping {
        _ = try Chipmunk.vect(origin, "mapping origin")
        guard scale.isFinite, scale > 0, scale <= 1e6 else { throw CalunaError.invalid("mapping scale must be in (0, 1e6] (got \(scale))") }
        return self
    }

    func position(_ p: Point) -> Point {
        Point(origin.x + scale * p.x, origin.y + scale * (flipY ? -p.y : p.y))
    }
}

struct LayerBinding {
    @WeakLink var layer: Layer? = nil
    let mapping: LayerMapping
}

extension PhysicsBody {
    /// Makes `layer` follow this body (again, with a new mapping, if it did).
    public func bind(_ layer: Layer, mapping: LayerMapping = .identity) throws {
        try check()
        let m = try mapping.checked()
        bindings.removeAll { $0.layer == nil || $0.layer === layer }
        bindings.append(LayerBinding(layer: layer, mapping: m))
        if let w = world, !w.boundBodies.contains(where: { $0 === self }) { w.boundBodies.append(self) }
        sync(bindings.count - 1)
    }

    /// Stops `layer` following the body (nil: every bound layer).
    public func unbind(_ layer: Layer? = nil) {
        bindings.removeAll { $0.layer == nil || layer == nil || $0.layer === layer }
        if bindings.isEmpty { world?.boundBodies.removeAll { $0 === self } }
    }

    public var boundLayers: [Layer] { bindings.compactMap(\.layer) }

    /// Moves the i-th bound layer, with its engine's actions off.
    func sync(_ i: Int) {
        guard let l = bindings[i].layer else { return }
        let m = bindings[i].mapping
        let p = m.position(position)
        let a = m.rotates ? (m.flipY ? -angle : angle) : nil
        if let e = l.engine { e.withoutActions { Self.move(l, to: p, angle: a) } } else { Self.move(l, to: p, angle: a) }
    }

    private static func move(_ l: Layer, to p: Point, angle a: Double?) {
        l.position = p
        if let a { l.affineTransform = a == 0 ? .identity : .rotation(a) }
    }
}

extension PhysicsWorld {
    /// Moves every bound layer to its body, actions off.
    func syncBindings() {
        for b in boundBodies {
            for i in b.bindings.indices { b.sync(i) }
        }
    }
}
