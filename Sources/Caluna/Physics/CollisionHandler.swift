import CChipmunk

/// Callbacks for collisions between shapes of given collision types
/// (cpCollisionHandler). Chipmunk's rules: a pair handler (typeA, typeB)
/// wins over wildcard handlers (type, any) for the phases it sets; a phase
/// it leaves unset runs the wildcards'. `begin` and `preSolve` return false
/// to ignore the contact (begin: until the shapes separate; preSolve: for
/// this step). Callbacks run inside the step: an error is reported after it
/// and the contact is then processed as if the callback returned true.
public final class CollisionHandler {
    public enum Selector: Hashable, CustomStringConvertible {
        case pair(CollisionType, CollisionType)
        case wildcard(CollisionType)
        /// Every collision without a more specific handler.
        case any

        public var description: String {
            switch self {
            case .pair(let a, let b): return "(\(a), \(b))"
            case .wildcard(let a): return "(\(a), *)"
            case .any: return "(*, *)"
            }
        }
    }

    public let selector: Selector
    weak var world: PhysicsWorld?
    private let cp: UnsafeMutablePointer<cpCollisionHandler>
    private let defaults: cpCollisionHandler

    public var begin: ((Arbiter) throws -> Bool)? { didSet { install() } }
    public var preSolve: ((Arbiter) throws -> Bool)? { didSet { install() } }
    public var postSolve: ((Arbiter) throws -> Void)? { didSet { install() } }
    public var separate: ((Arbiter) throws -> Void)? { didSet { install() } }

    init(world: PhysicsWorld, selector: Selector) throws {
        switch selector {
        case .pair(let a, let b): cp = cpSpaceAddCollisionHandler(world.space, try a.number(), try b.number())
        case .wildcard(let a): cp = cpSpaceAddWildcardHandler(world.space, try a.number())
        case .any: cp = cpSpaceAddDefaultCollisionHandler(world.space)
        }
        self.selector = selector
        self.world = world
        defaults = cp.pointee
        cp.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Sets Chipmunk's function for each phase that has a callback, its
    /// default for the others.
    private func install() {
        guard world != nil else { return }
        cp.pointee.beginFunc = begin == nil ? defaults.beginFunc : beginTrampoline
        cp.pointee.preSolveFunc = preSolve == nil ? defaults.preSolveFunc : preSolveTrampoline
        cp.pointee.postSolveFunc = postSolve == nil ? defaults.postSolveFunc : postSolveTrampoline
        cp.pointee.separateFunc = separate == nil ? defaults.separateFunc : separateTrampoline
    }

    /// The world is going away: Chipmunk gets its defaults back and no
    /// callback runs again.
    func detach() {
        cp.pointee.beginFunc = defaults.beginFunc
        cp.pointee.preSolveFunc = defaults.preSolveFunc
        cp.pointee.postSolveFunc = defaults.postSolveFunc
        cp.pointee.separateFunc = defaults.separateFunc
        world = nil
        begin = nil; preSolve = nil; postSolve = nil; separate = nil
    }

    /// Calls a callback with an arbiter valid only for the call.
    fileprivate static func run<T>(_ arb: ArbiterRef?, _ data: UnsafeMutableRawPointer?, _ fallback: T,
                                   _ pick: (CollisionHandler) -> ((Arbiter) throws -> T)?) -> T {
        guard let arb, let data else { return fallback }
        let h = Unmanaged<CollisionHandler>.fromOpaque(data).takeUnretainedValue()
        guard let w = h.world, let f = pick(h) else { return fallback }
        let a = Arbiter(arb)
        defer { a.handle = nil }
        return w.runCallback(default: fallback) { try f(a) }
    }
}

extension PhysicsWorld {
    /// The handler for a pair of collision types (made on first use).
    public func collisionHandler(_ selector: CollisionHandler.Selector) throws -> CollisionHandler {
        try checkNotStepping("adding a collision handler")
        if let h = handlers[selector] { return h }
        // Chipmunk keeps one handler per unordered pair.
        if case .pair(let a, let b) = selector, let h = handlers[.pair(b, a)] { return h }
        let h = try CollisionHandler(world: self, selector: selector)
        handlers[selector] = h
        return h
    }
}

private let beginTrampoline: cpCollisionBeginFunc = { arb, _, data in
    CollisionHandler.run(arb, data, true) { $0.begin } ? 1 : 0
}
private let preSolveTrampoline: cpCollisionPreSolveFunc = { arb, _, data in
    CollisionHandler.run(arb, data, true) { $0.preSolve } ? 1 : 0
}
private let postSolveTrampoline: cpCollisionPostSolveFunc = { arb, _, data in
    CollisionHandler.run(arb, data, ()) { $0.postSolve }
}
private let separateTrampoline: cpCollisionSeparateFunc = { arb, _, data in
    CollisionHandler.run(arb, data, ()) { $0.separate }
}

/// A collision in progress (cpArbiter), valid only inside the callback it
/// is passed to. Shape `a` has the handler's first collision type.
public final class Arbiter {
    fileprivate(set) var handle: ArbiterRef?
    fileprivate init(_ h: ArbiterRef) { handle = h }

    public struct ContactPoint: Equatable {
        /// The contact on shape a's and on shape b's surface, world coordinates.
        public var pointA: Point
        public var pointB: Point
        /// Negative when the shapes overlap (penetration depth).
        public var distance: Double

        static func all(in set: UnsafePointer<cpContactPointSet>) -> [ContactPoint] {
            (0..<Int(max(0, min(2, set.pointee.count)))).map { i in
                var a = cpVect(), b = cpVect(), d = 0.0
                calu_cpContactPoint(set, Int32(i), &a, &b, &d)
                return ContactPoint(pointA: Chipmunk.point(a), pointB: Chipmunk.point(b), distance: d)
            }
        }
    }

    func live() throws -> ArbiterRef {
        guard let h = handle else { throw CalunaError(.staleHandle, "an arbiter is valid only inside its collision callback") }
        return h
    }

    public func shapes() throws -> (PhysicsShape?, PhysicsShape?) {
        var a: ShapeRef? = nil, b: ShapeRef? = nil
        cpArbiterGetShapes(try live(), &a, &b)
        return (PhysicsShape.shape(a), PhysicsShape.shape(b))
    }

    public func bodies() throws -> (PhysicsBody?, PhysicsBody?) {
        var a: BodyRef? = nil, b: BodyRef? = nil
        cpArbiterGetBodies(try live(), &a, &b)
        return (PhysicsWorld.body(a), PhysicsWorld.body(b))
    }

    /// The collision normal, from a to b.
    public func normal() throws -> Point { Chipmunk.point(cpArbiterGetNormal(try live())) }

    public func contactPoints() throws -> [ContactPoint] {
        var set = cpArbiterGetContactPointSet(try live())
        return ContactPoint.all(in: &set)
    }

    public func isFirstContact() throws -> Bool { cpArbiterIsFirstContact(try live()) != 0 }
    /// True in a separate callback caused by a removal, not by motion.
    public func isRemoval() throws -> Bool { cpArbiterIsRemoval(try live()) != 0 }
    /// The impulse applied this step (meaningful in postSolve).
    public func totalImpulse() throws -> Point { Chipmunk.point(cpArbiterTotalImpulse(try live())) }
    /// The energy the collision lost this step (meaningful in postSolve).
    public func totalKineticEnergy() throws -> Double { cpArbiterTotalKE(try live()) }

    public func restitution() throws -> Double { cpArbiterGetRestitution(try live()) }
    public func setRestitution(_ e: Double) throws {
        cpArbiterSetRestitution(try live(), try Chipmunk.number(e, "restitution", min: 0, max: 10))
    }
    public func friction() throws -> Double { cpArbiterGetFriction(try live()) }
    public func setFriction(_ u: Double) throws {
        cpArbiterSetFriction(try live(), try Chipmunk.positive(u, "friction", allowZero: true))
    }
    public func surfaceVelocity() throws -> Point { Chipmunk.point(cpArbiterGetSurfaceVelocity(try live())) }
    public func setSurfaceVelocity(_ v: Point) throws {
        cpArbiterSetSurfaceVelocity(try live(), try Chipmunk.vect(v, "surfaceVelocity"))
    }
}
