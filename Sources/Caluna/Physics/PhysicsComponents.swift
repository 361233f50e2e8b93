/// Bodies joined by constraints: Chipmunk sleeps and wakes them as one
/// component (cpSpaceComponent.c), so a body put to sleep by hand takes its
/// joined bodies with it (PhysicsBody.sleep).
extension PhysicsWorld {
    /// `body` and every dynamic body in this world joined to it through a
    /// chain of the world's constraints, `body` first. O(bodies + constraints).
    func constraintComponent(of body: PhysicsBody) -> [PhysicsBody] {
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
            for other in joined[ObjectIdentifier(b)] ?? [] where other.kind == .dynamic && other.world === self {
                if seen.insert(ObjectIdentifier(other)).inserted { component.append(other) }
            }
        }
        return component
    }
}
