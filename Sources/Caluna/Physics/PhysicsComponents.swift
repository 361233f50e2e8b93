import CChipmunk

/// Bodies that sleep together: Chipmunk sleeps and wakes whole components of
/// bodies joined by constraints or touching (cpSpaceComponent.c), and its next
/// step aborts on a sleeping body still touching or joined to an awake one. So
/// a body put to sleep by hand takes its component with it (PhysicsBody.sleep).
extension PhysicsWorld {
    /// `body` and every dynamic body of this world joined to it through a
    /// chain of the world's constraints or of contacts from the last step,
    /// `body` first; nil when the chain reaches a kinematic body (Chipmunk
    /// keeps what a kinematic body touches or drives awake).
    /// O(bodies + constraints + contacts).
    func sleepComponent(of body: PhysicsBody) -> [PhysicsBody]? {
        var joined: [ObjectIdentifier: [PhysicsBody]] = [:]
        for c in constraints where c.world === self {
            joined[ObjectIdentifier(c.bodyA), default: []].append(c.bodyB)
            joined[ObjectIdentifier(c.bodyB), default: []].append(c.bodyA)
        }
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(body)]
        var component = [body], next = 0
        while next < component.count {
            let b = component[next]
            next += 1
            for other in (joined[ObjectIdentifier(b)] ?? []) + PhysicsWorld.touching(b) where other.world === self {
                if other.kind == .kinematic { return nil }
                guard other.kind == .dynamic else { continue }
                if seen.insert(ObjectIdentifier(other)).inserted { component.append(other) }
            }
        }
        return component
    }

    /// The bodies `body`'s arbiters (the contacts of the last step) pair it with.
    static func touching(_ body: PhysicsBody) -> [PhysicsBody] {
        final class Found { var bodies: [PhysicsBody] = [] }
        let found = Found()
        withExtendedLifetime(found) {
            cpBodyEachArbiter(body.handle, { own, arb, data in
                guard let arb, let data else { return }
                var a: BodyRef? = nil, b: BodyRef? = nil
                cpArbiterGetBodies(arb, &a, &b)
                if let other = PhysicsWorld.body(a == own ? b : a) {
                    Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().bodies.append(other)
                }
            }, Unmanaged.passUnretained(found).toOpaque())
        }
        return found.bodies
    }
}
