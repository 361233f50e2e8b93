import BenchPeers
import Caluna
import CalunaBridge
import CalunaLua
import Glibc

/// A physics scene as plain data, so caluna and the C peer build exactly the
/// same thing: the same shapes, with the same numbers, added in the same
/// order. Chipmunk is deterministic, so the two then stay bit-identical.
struct PhysicsScene {
    var gravity: Point
    /// On the static body, added first.
    var segments: [bench_segment]
    /// One dynamic body each, in this order.
    var boxes: [bench_box]
    static let step = 1.0 / 120

    /// Issue #6's scene: 1,000 16×16 boxes (mass 1) in a staggered 40×25
    /// grid falling onto a 1200-wide sine-and-zig-zag ground of 30 segments
    /// between two side walls.
    static func terrain() -> PhysicsScene {
        let ground = (0...30).map { i in Point(Double(i) * 40, 40 + 12 * sin(Double(i) * 0.7) + Double(i % 2) * 6) }
        var segments = polyline(ground, radius: 2, friction: 0.5, elasticity: 0.2)
        for x in [0.0, 1200] {
            segments += polyline([Point(x, 0), Point(x, 1500)], radius: 2, friction: 0.5, elasticity: 0.2)
        }
        let boxes = grid(columns: 40, rows: 25, origin: Point(110, 90), spacing: Size(25, 20), stagger: 8,
                         side: 16, mass: 1, friction: 0.5, elasticity: 0.2)
        return PhysicsScene(gravity: Point(0, -1000), segments: segments, boxes: boxes)
    }

    /// The book's crate scene at G18's scale: 200 32×32 crates (mass 100,
    /// friction 0.5, elasticity 0.8) in a 1000×1000 box of four radius-1
    /// walls (friction 0.5, elasticity 0.8), gravity (0, −1000).
    static func crates() -> PhysicsScene {
        let walls = [Point(0, 0), Point(1000, 0), Point(1000, 1000), Point(0, 1000), Point(0, 0)]
        let boxes = grid(columns: 20, rows: 10, origin: Point(100, 100), spacing: Size(40, 45), stagger: 10,
                         side: 32, mass: 100, friction: 0.5, elasticity: 0.8)
        return PhysicsScene(gravity: Point(0, -1000), segments: polyline(walls, radius: 1, friction: 0.5, elasticity: 0.8),
                            boxes: boxes)
    }

    /// Segments joining consecutive points.
    static func polyline(_ p: [Point], radius: Double, friction: Double, elasticity: Double) -> [bench_segment] {
        zip(p, p.dropFirst()).map { a, b in
            bench_segment(ax: a.x, ay: a.y, bx: b.x, by: b.y, radius: radius, friction: friction, elasticity: elasticity)
        }
    }

    /// Square boxes centred on a grid, row by row from the bottom; odd rows
    /// shifted right by `stagger` so the columns do not stack exactly.
    static func grid(columns: Int, rows: Int, origin: Point, spacing: Size, stagger: Double,
                     side: Double, mass: Double, friction: Double, elasticity: Double) -> [bench_box] {
        (0..<rows).flatMap { row in
            (0..<columns).map { column in
                bench_box(x: origin.x + Double(column) * spacing.width + Double(row % 2) * stagger,
                          y: origin.y + Double(row) * spacing.height,
                          width: side, height: side, mass: mass, friction: friction, elasticity: elasticity)
            }
        }
    }
}

/// The scene in plain C against libchipmunk (Sources/BenchPeers).
final class ChipmunkPeer {
    let scene: OpaquePointer
    let count: Int

    init(_ s: PhysicsScene) throws {
        guard let p = bench_chipmunk_create(s.gravity.x, s.gravity.y, s.segments, Int32(s.segments.count),
                                            s.boxes, Int32(s.boxes.count)) else {
            throw BenchmarkFailure("the C peer could not build its scene")
        }
        scene = p
        count = s.boxes.count
    }

    deinit { bench_chipmunk_destroy(scene) }

    func step(_ n: Int) { bench_chipmunk_step(scene, PhysicsScene.step, Int32(n)) }

    /// x, y, angle per box.
    func bodies() -> [Double] {
        var out = [Double](repeating: 0, count: 3 * count)
        _ = bench_chipmunk_bodies(scene, &out, Int32(count))
        return out
    }
}

/// How the caluna side builds and steps its world.
enum CalunaPhysicsMode {
    /// A Lua script, stepping with `world:step(1/120)`.
    case lua
    /// A Lua script with a layer bound to each body, stepping the engine
    /// with `ca.step(1/120)` so the bound layers follow.
    case luaBound
    /// The Swift API (PhysicsWorld.step), no Lua.
    case swift
}

/// The scene built by caluna, through Lua or straight through Swift.
final class CalunaPhysics {
    let mode: CalunaPhysicsMode
    let count: Int
    private var host: LuaHost?
    private var world: PhysicsWorld?
    private var bodyList: [PhysicsBody] = []

    init(_ s: PhysicsScene, mode: CalunaPhysicsMode) throws {
        self.mode = mode
        count = s.boxes.count
        switch mode {
        case .swift:
            var settings = PhysicsWorld.Settings()
            settings.gravity = s.gravity
            settings.step = PhysicsScene.step
            let w = try PhysicsWorld(engine: nil, settings: settings)
            for g in s.segments {
                let shape = try w.staticBody.addShape(.segment(a: Point(g.ax, g.ay), b: Point(g.bx, g.by), radius: g.radius))
                try shape.setFriction(g.friction)
                try shape.setElasticity(g.elasticity)
            }
            for b in s.boxes {
                let body = try PhysicsBody(mass: b.mass)
                try body.setPosition(Point(b.x, b.y))
                try w.add(body)
                let shape = try body.addShape(.box(width: b.width, height: b.height, radius: 0, center: .zero))
                try shape.setFriction(b.friction)
                try shape.setElasticity(b.elasticity)
                bodyList.append(body)
            }
            world = w
        case .lua, .luaBound:
            let h = try LuaHost(session: try Session(size: Size(1200, 1000), scale: 1))
            try h.runString(CalunaPhysics.script(s, bound: mode == .luaBound), chunkName: "physics-bench")
            host = h
        }
    }

    /// Builds the world as globals `world` and `bodies`, and `stepWorld(n)`
    /// (n steps) and `bodyStates()` (x, y, angle per body) for the harness.
    /// Numbers are written with Swift's shortest round-trip form, which Lua
    /// reads back to the same doubles.
    static func script(_ s: PhysicsScene, bound: Bool) -> String {
        func list(_ rows: [[Double]]) -> String {
            "{" + rows.map { "{" + $0.map { "\($0)" }.joined(separator: ",") + "}" }.joined(separator: ",\n") + "}"
        }
        let segments = list(s.segments.map { [$0.ax, $0.ay, $0.bx, $0.by, $0.radius, $0.friction, $0.elasticity] })
        let boxes = list(s.boxes.map { [$0.x, $0.y, $0.width, $0.height, $0.mass, $0.friction, $0.elasticity] })
        return """
            local ca = require "caluna"
            local bound, dt = \(bound), \(PhysicsScene.step)
            world = ca.physics.World{ gravity = {\(s.gravity.x), \(s.gravity.y)}, step = dt }
            for _, g in ipairs(\(segments)) do
              world.staticBody:addSegment{ a = {g[1], g[2]}, b = {g[3], g[4]}, radius = g[5],
                                           friction = g[6], elasticity = g[7] }
            end
            -- The book's container: y-up world coordinates in a flipped layer.
            local container = ca.Layer{ frame = {0, 0, 1200, 1000}, geometryFlipped = true }
            if bound then ca.root:addSublayer(container) end
            bodies, layers = {}, {}
            for i, b in ipairs(\(boxes)) do
              local body = world:addBody{ mass = b[5], position = {b[1], b[2]} }
              body:addBox{ width = b[3], height = b[4], friction = b[6], elasticity = b[7] }
              if bound then
                local layer = ca.Layer{ bounds = {0, 0, b[3], b[4]}, backgroundColor = "peru" }
                container:addSublayer(layer)
                body:bind(layer)
                layers[i] = layer
              end
              bodies[i] = body
            end
            function stepWorld(n)
              for _ = 1, n do
                if bound then ca.step(dt) else world:step(dt) end
              end
            end
            function bodyStates()
              local out = {}
              for i, body in ipairs(bodies) do
                local p = body.position
                out[3 * i - 2], out[3 * i - 1], out[3 * i] = p.x, p.y, body.angle
              end
              return table.unpack(out)
            end
            """
    }

    private func lua() throws -> LuaHost {
        guard let h = host else { throw BenchmarkFailure("this caluna side has no Lua state") }
        return h
    }

    /// `n` steps. Through Lua, one chunk runs them all, so compiling the
    /// chunk (a harness cost, not a script's) is spread over `n`.
    func step(_ n: Int) throws {
        if let w = world {
            for _ in 0..<n { try w.step(PhysicsScene.step) }
        } else {
            try lua().runString("stepWorld(\(n))", chunkName: "step")
        }
    }

    /// x, y, angle per box, in creation order.
    func bodies() throws -> [Double] {
        if world != nil { return bodyList.flatMap { [$0.position.x, $0.position.y, $0.angle] } }
        return try lua().evaluate("return bodyStates()", chunkName: "bodyStates")
    }

    /// The bound layers' positions, x and y per box (luaBound only).
    func layerPositions() throws -> [Double] {
        try lua().evaluate("""
            local out = {}
            for i, layer in ipairs(layers) do
              local p = layer.position
              out[2 * i - 1], out[2 * i] = p.x, p.y
            end
            return table.unpack(out)
            """, chunkName: "layerPositions")
    }
}
