import Testing
import Glibc
@testable import Caluna
import CalunaBridge

// The engine memory cap (DESIGN §4, untrusted scripts): the ledger's
// arithmetic, and each kind of engine memory stopping at the limit with
// `.outOfMemory` and given back when freed.

/// The CalunaError `body` throws, or nil.
private func calunaError<T>(_ body: () throws -> T) -> CalunaError? {
    do { _ = try body(); return nil } catch { return error as? CalunaError }
}

/// An engine whose ledger allows `room` bytes beyond what it holds now.
private func engine(room: Int, size: Size = Size(64, 64)) throws -> Engine {
    let e = try Engine(size: size)
    e.memory.limit = e.memory.used + room
    return e
}

@Suite struct MemoryLedgerTests {
    // MARK: the ledger

    @Test func chargeAndReleaseArithmetic() throws {
        let m = MemoryLedger()
        #expect(m.limit == 0 && m.used == 0 && m.peak == 0)
        try m.charge(100, "a")
        try m.charge(50, "b")
        #expect(m.used == 150 && m.peak == 150)
        m.release(100)
        #expect(m.used == 50 && m.peak == 150)
        try m.charge(0, "nothing")
        m.release(-5)          // ignored
        #expect(m.used == 50)
        m.release(80)          // clamped at 0
        #expect(m.used == 0 && m.peak == 150)
        m.limit = -1
        #expect(m.limit == 0)
    }

    @Test func refusalHasTheCodeAndMessageAndChangesNothing() throws {
        let m = MemoryLedger(limit: 1 << 20)
        try m.charge(1 << 20, "fill")
        let e = calunaError { try m.charge(1, "Image 1×1") }
        #expect(e == CalunaError(.outOfMemory, "Image 1×1: the engine memory limit (1 MiB) is reached"))
        #expect(m.used == 1 << 20)
        m.limit = 3 << 19
        #expect(calunaError { try m.charge(1 << 20, "x") }?.message == "x: the engine memory limit (1.5 MiB) is reached")
        try m.check(1 << 19, "fits")
        #expect(m.used == 1 << 20, "check charges nothing")
        #expect(calunaError { try m.check((1 << 19) + 1, "y") }?.code == .outOfMemory)
    }

    @Test func externalBytesShareTheCap() throws {
        let m = MemoryLedger(limit: 1000)
        m.external = { 600 }
        try m.charge(400, "a")
        #expect(calunaError { try m.charge(1, "b") }?.code == .outOfMemory)
        #expect(m.used == 400)
        m.external = { 0 }
        try m.charge(600, "c")
        #expect(m.used == 1000)
        m.external = { Int.max }
        m.release(1000)
        #expect(calunaError { try m.charge(1, "d") }?.code == .outOfMemory, "overflow with the external count is a refusal")
        m.limit = 0
        try m.charge(1, "no limit: external is not asked")
    }

    @Test func negativeAndOverflowingCountsAreRefusedNotTrapped() throws {
        let m = MemoryLedger()
        #expect(calunaError { try m.charge(-1, "neg") } == CalunaError(.invalidArgument, "neg: a negative memory charge (-1 bytes)"))
        try m.charge(1, "one")
        #expect(calunaError { try m.charge(Int.max, "big") }?.code == .invalidArgument)
        #expect(m.used == 1)
        #expect(calunaError { try MemoryCharge(m, -3, "neg") }?.code == .invalidArgument)
        let c = try MemoryCharge(m, 10, "c")
        #expect(calunaError { try c.resize(to: -1, "neg") }?.code == .invalidArgument)
        #expect(c.bytes == 10 && m.used == 11)
    }

    @Test func aChargeIsReleasedOnceWhenItsHolderGoes() throws {
        let m = MemoryLedger(limit: 100)
        do {
            let c = try MemoryCharge(m, 60, "c")
            #expect(m.used == 60)
            try c.resize(to: 90, "grow")
            #expect(m.used == 90)
            #expect(calunaError { try c.resize(to: 101, "too much") }?.code == .outOfMemory)
            #expect(c.bytes == 90 && m.used == 90)
            try c.resize(to: 20, "shrink")
            #expect(m.used == 20)
        }
        #expect(m.used == 0 && m.peak == 90)
        let none = try MemoryCharge(nil, 1 << 40, "no ledger")
        #expect(none.bytes == 0)
    }

    @Test func theCurrentLedgerNestsAndIsRestored() throws {
        let a = MemoryLedger(), b = MemoryLedger()
        #expect(MemoryLedger.current == nil)
        a.withCurrent {
            #expect(MemoryLedger.current === a)
            b.withCurrent { #expect(MemoryLedger.current === b) }
            MemoryLedger.withCurrent(nil) { #expect(MemoryLedger.current == nil) }
            #expect(MemoryLedger.current === a)
        }
        struct Boom: Error {}
        #expect(throws: Boom.self) { try b.withCurrent { throw Boom() } }
        #expect(MemoryLedger.current == nil)
    }

    /// ThreadContext.enter/leave (the C ABI's calls) and withCurrent share
    /// one record per thread: they nest in any order, each puts back what it
    /// replaced, and another thread sees none of it.
    @Test func enteringACallNestsWithTheCurrentLedgerPerThread() {
        let a = MemoryLedger(), b = MemoryLedger(), c = MemoryLedger()
        // Any two addresses stand for two calls (the core only keeps them).
        let call1 = Unmanaged.passUnretained(a).toOpaque(), call2 = Unmanaged.passUnretained(b).toOpaque()
        #expect(ThreadContext.call == nil && MemoryLedger.current == nil)
        let outer = ThreadContext.enter(ledger: .passUnretained(a), call: call1)
        #expect(MemoryLedger.current === a && ThreadContext.call == call1)
        b.withCurrent {
            #expect(MemoryLedger.current === b && ThreadContext.call == call1)
            let inner = ThreadContext.enter(ledger: .passUnretained(c), call: call2)
            #expect(MemoryLedger.current === c && ThreadContext.call == call2)
            ThreadContext.leave(inner)
            #expect(MemoryLedger.current === b && ThreadContext.call == call1)
        }
        #expect(MemoryLedger.current === a && ThreadContext.call == call1)
        final class Seen { var ledger = true, call = true }
        let seen = Seen()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { arg in
            let s = Unmanaged<Seen>.fromOpaque(arg!).takeUnretainedValue()
            (s.ledger, s.call) = (MemoryLedger.current != nil, ThreadContext.call != nil)
            return nil
        }, Unmanaged.passUnretained(seen).toOpaque())
        #expect(made == 0)
        if made == 0 { pthread_join(thread, nil) }
        #expect(!seen.ledger && !seen.call, "another thread has its own record")
        ThreadContext.leave(outer)
        #expect(ThreadContext.call == nil && MemoryLedger.current == nil)
    }

    // MARK: the engine

    @Test func anEngineChargesItsRootAndASessionKeepsOneLedger() throws {
        let e = try Engine()
        withExtendedLifetime(e) { #expect(e.memory.used == Layer.estimatedBytes) }
        let s = try Session()
        #expect(s.engine.memory === s.memory)
        try s.reset(size: Size(10, 10), scale: 1)
        #expect(s.engine.memory === s.memory)
        #expect(s.memory.used == Layer.estimatedBytes, "the old engine's root went with it")
        // A full ledger still lets a session reset (the root is not refused);
        // the next charge is.
        s.memory.limit = 1
        try s.reset(size: Size(10, 10), scale: 1)
        #expect(s.memory.used == Layer.estimatedBytes)
        #expect(calunaError { try s.engine.createLayer() }?.code == .outOfMemory)
    }

    @Test func imagesStopAtTheLimitAndGiveTheirBytesBack() throws {
        let e = try engine(room: 1 << 20)
        let before = e.memory.used
        var images: [Image] = []
        let error = e.memory.withCurrent { () -> CalunaError? in
            while true {
                do { images.append(try Image(width: 256, height: 256)) } catch { return error as? CalunaError }
                #expect(e.memory.used <= e.memory.limit)
            }
        }
        #expect(error == CalunaError(.outOfMemory, "Image 256×256: the engine memory limit (\(MemoryLedger.mebibytes(e.memory.limit)) MiB) is reached"))
        #expect(images.count == (1 << 20) / Image.chargedBytes(256, 256))
        #expect(e.memory.used == before + images.count * Image.chargedBytes(256, 256))
        images = []
        #expect(e.memory.used == before)
        // Decoded and copied images count too.
        let png = try e.memory.withCurrent { try Image(width: 300, height: 300).pngData() }
        e.memory.limit = e.memory.used + Image.chargedBytes(300, 300) - 1
        #expect(e.memory.withCurrent { calunaError { try Image(data: png) } }?.code == .outOfMemory)
        var pixels = [UInt8](repeating: 255, count: 300 * 300 * 4)
        #expect(e.memory.withCurrent {
            calunaError { try Image(width: 300, height: 300, copying: &pixels, stride: 1200, format: .rgba8Straight) }
        }?.code == .outOfMemory)
        e.memory.limit += 1
        let decoded = try e.memory.withCurrent { try Image(data: png) }
        #expect(e.memory.used == before + Image.chargedBytes(300, 300))
        _ = decoded
    }

    @Test func rendersStopAtTheLimit() throws {
        let e = try engine(room: 100_000)
        let before = e.memory.used
        var frames: [Image] = []
        var failure: CalunaError? = nil
        while failure == nil {
            failure = calunaError { frames.append(try e.render()) }
            #expect(e.memory.used <= e.memory.limit)
        }
        #expect(failure?.code == .outOfMemory)
        #expect(frames.count == 100_000 / Image.chargedBytes(64, 64))
        frames = []
        #expect(e.memory.used == before)
    }

    @Test func snapshotsStopAtTheLimit() throws {
        let e = try engine(room: 100_000)
        let l = try e.createLayer()
        l.bounds = Rect(0, 0, 50, 50)
        l.backgroundColor = .black
        try e.root.addSublayer(l)
        let before = e.memory.used
        var shots: [Image] = []
        while let s = try? l.snapshot() {
            shots.append(s)
            #expect(e.memory.used <= e.memory.limit)
        }
        #expect(shots.count == 100_000 / Image.chargedBytes(50, 50))
        #expect(calunaError { try l.snapshot() }?.message.hasPrefix("Image 50×50: the engine memory limit") == true)
        shots = []
        #expect(e.memory.used == before)
    }

    @Test func offscreenPassesAreChargedOnlyDuringTheRender() throws {
        let e = try Engine(size: Size(64, 64))
        let group = try e.createLayer(), mask = try e.createLayer(), child = try e.createLayer()
        group.frame = Rect(0, 0, 40, 40)
        group.opacity = 0.5
        group.backgroundColor = .black
        group.shadowOpacity = 1
        mask.frame = Rect(0, 0, 20, 20)
        mask.backgroundColor = .black
        try group.setMask(mask)
        child.frame = Rect(5, 5, 10, 10)
        child.backgroundColor = .white
        try group.addSublayer(child)
        try e.root.addSublayer(group)
        let before = e.memory.used
        let frame = try e.render()
        #expect(e.memory.peak > before + Image.chargedBytes(64, 64), "groups, mask and shadow were charged")
        // The shadow's blurred mask (and its silhouette) stay in the effect cache, charged.
        #expect(e.effectCache.count == 1 && e.effectCache.bytes > 0)
        #expect(e.memory.used == before + Image.chargedBytes(64, 64) + e.effectCache.bytes, "and released at the end")
        // With room for the frame only, the first offscreen pass is refused.
        e.memory.limit = e.memory.used + Image.chargedBytes(64, 64)
        #expect(calunaError { try e.render() }?.message.hasPrefix("render: an offscreen group") == true)
        #expect(e.memory.used == before + Image.chargedBytes(64, 64) + e.effectCache.bytes)
        e.effectCache.removeAll()
        #expect(e.memory.used == before + Image.chargedBytes(64, 64), "a dropped mask gives its bytes back")
        _ = frame
    }

    @Test func pathBuildersStopAtTheLimit() throws {
        let m = MemoryLedger(limit: 1 << 20)
        let b = PathBuilder(memory: m)
        try b.edit(adding: 1, "moveTo") { $0.move(to: .zero) }
        var error: CalunaError? = nil
        while error == nil {   // path:addPath(path), the 938 MB builder
            let n = b.path.elements.count
            error = calunaError { try b.edit(adding: n, "Path:addPath") { let copy = $0; $0.addPath(copy) } }
            #expect(m.used <= m.limit)
            #expect(m.used == b.chargedBytes && b.chargedBytes == b.path.elements.capacity * Path.elementBytes)
            if error != nil { #expect(b.path.elements.count == n, "a refused edit leaves the path as it was") }
        }
        #expect(error == CalunaError(.outOfMemory, "Path:addPath: the engine memory limit (1 MiB) is reached"))
        do {   // path:copy() shares the storage (counted without refusal: it exists)
            let copy = PathBuilder(b.path, memory: m)
            withExtendedLifetime(copy) {
                #expect(m.used == 2 * b.chargedBytes && m.used > m.limit)
                #expect(calunaError { try m.charge(1, "anything else") }?.code == .outOfMemory)
            }
        }
        #expect(m.used == b.chargedBytes)
        do {
            m.limit = b.chargedBytes + 10_000
            let c = PathBuilder(memory: m)
            try c.edit(adding: 1, "moveTo") { $0.move(to: .zero) }
            while (try? c.edit(adding: 1, "lineTo", { $0.line(to: Point(1, 1)) })) != nil {
                #expect(m.used <= m.limit)
            }
            #expect(m.used == b.chargedBytes + c.chargedBytes && c.path.elements.count > 1)
        }
        #expect(m.used == b.chargedBytes)
    }

    @Test func aDrawingContextPathStopsAtTheLimit() throws {
        let e = try engine(room: 200_000)
        let l = try e.createLayer()
        l.bounds = Rect(0, 0, 10, 10)
        var failure: CalunaError? = nil
        l.drawHandler = { _, ctx in
            try ctx.move(to: .zero)
            failure = calunaError { for _ in 0..<1_000_000 { try ctx.addLine(to: Point(5, 5)) } }
            if let failure { throw failure }
        }
        try e.root.addSublayer(l)
        let before = e.memory.used
        #expect(calunaError { try l.display() }?.code == .outOfMemory)
        #expect(failure?.message == "CGContext.addLineTo: the drawing context's path: the engine memory limit (\(MemoryLedger.mebibytes(e.memory.limit)) MiB) is reached")
        #expect(e.memory.used == before + Image.chargedBytes(10, 10), "the store stays; the path's charge went with the context")
    }

    @Test func physicsObjectsStopAtTheLimit() throws {
        let e = try Engine()
        let w = try PhysicsWorld(engine: e)
        #expect(e.memory.used == Layer.estimatedBytes + PhysicsWorld.estimatedBytes)
        e.memory.limit = e.memory.used + 10 * PhysicsBody.estimatedBytes
        var bodies: [PhysicsBody] = []
        let error = e.memory.withCurrent { () -> CalunaError? in
            while true {
                do { bodies.append(try PhysicsBody(mass: 1)) } catch { return error as? CalunaError }
            }
        }
        #expect(bodies.count == 10)
        #expect(error == CalunaError(.outOfMemory, "a physics body: the engine memory limit (\(MemoryLedger.mebibytes(e.memory.limit)) MiB) is reached"))
        for b in bodies { try w.add(b) }
        // Shapes and constraints charge their body's ledger.
        #expect(calunaError { try bodies[0].addShape(.circle(radius: 1, offset: .zero)) }?.code == .outOfMemory)
        #expect(calunaError { try PhysicsConstraint(.pivot, bodies[0], bodies[1], ["pivot": .point(.zero)]) }?.code == .outOfMemory)
        try w.remove(bodies.removeLast())   // freed: its bytes come back
        let s = try bodies[0].addShape(.circle(radius: 1, offset: .zero))
        #expect(e.memory.used == e.memory.limit - PhysicsBody.estimatedBytes + s.memoryCharge.bytes)
        e.memory.limit = 0
        let static0 = try w.staticBody.addShape(.segment(a: .zero, b: Point(1, 0), radius: 1))
        #expect(static0.memoryCharge.ledger === e.memory)
    }

    @Test func aFreedLayerTreeGivesEverythingBack() throws {
        let e = try Engine(size: Size(100, 100))
        let baseline = e.memory.used
        do {
            let top = try e.createLayer()
            top.frame = Rect(0, 0, 80, 80)
            var parent = top
            for i in 0..<20 {
                let l = try e.createLayer(kind: i % 2 == 0 ? .layer : .textLayer)
                l.frame = Rect(1, 1, 60, 60)
                l.backgroundColor = .black
                if l.kind == .textLayer { try l.setValue(.string("hello"), forKeyPath: "string") }
                l.drawHandler = { _, ctx in try ctx.addRect(Rect(0, 0, 1, 1)) }
                l.setNeedsDisplay()
                try parent.addSublayer(l)
                parent = l
            }
            let anim = KeyframeAnimation()
            anim.keyPath = "position"
            anim.values = [.point(.zero), .point(Point(10, 10)), .point(Point(20, 0))]
            try top.addAnimation(anim, forKey: "move")
            try e.root.addSublayer(top)
            #expect(e.memory.used >= baseline + 21 * Layer.estimatedBytes + anim.estimatedBytes(on: top))
            try e.step(0.1)
            _ = try e.render()
            #expect(e.memory.used > baseline + 21 * Layer.estimatedBytes)
            top.removeFromSuperlayer()
            try e.step(1)
        }
        #expect(e.memory.used == baseline)
    }

    @Test func animationsAreChargedWhenAttached() throws {
        let e = try Engine()
        let l = try e.createLayer()
        try e.root.addSublayer(l)
        let before = e.memory.used
        let k = KeyframeAnimation()
        k.keyPath = "position"
        var p = Path()
        p.move(to: .zero)
        for i in 0..<1000 { p.curve(to: Point(Double(i), 1), control1: Point(1, 2), control2: Point(2, 1)) }
        k.path = p
        let cost = k.estimatedBytes(on: l)
        #expect(cost >= 1000 * (PathSegment.lengthSamples + 1) * 8, "the measured arc lengths count")
        try l.addAnimation(k, forKey: "follow")
        #expect(e.memory.used == before + cost)
        e.memory.limit = e.memory.used + cost - 1
        #expect(calunaError { try l.addAnimation(k, forKey: "again") }?.code == .outOfMemory)
        l.removeAllAnimations()
        try e.step(0.1)
        #expect(e.memory.used == before)
    }
}
