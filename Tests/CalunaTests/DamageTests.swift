import Testing
import Glibc
@testable import Caluna

// Retained rendering (RenderTarget.swift, Damage.swift): a partial redraw must
// give the bytes of a full one, and damage must stay tight.

func sameBytes(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    return a.withPixels { pa, sa in
        b.withPixels { pb, sb in
            (0..<a.height).allSatisfy { y in memcmp(pa + y * sa, pb + y * sb, a.width * 4) == 0 }
        }
    }
}

/// The first differing pixel and the box of all of them, for failure messages.
func firstDifference(_ a: Image, _ b: Image) -> String {
    var first: String? = nil, box: PixelRect? = nil, n = 0
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y)! != b.pixel(x: x, y: y)! {
            if first == nil { first = "(\(x), \(y)): \(a.pixel(x: x, y: y)!) vs \(b.pixel(x: x, y: y)!)" }
            let p = PixelRect(x: x, y: y, width: 1, height: 1)
            box = box.map { $0.union(p) } ?? p
            n += 1
        }
    }
    return "\(first ?? "none"), \(n) pixels in \(box.map(\.description) ?? "-")"
}

@Test func oneMovingLayerAmongStaticOnesDamagesItsOldAndNewBoxes() throws {
    let engine = try Engine(size: Size(400, 300))
    engine.root.backgroundColor = .white
    var rng = SeededRandom(seed: 7)
    for _ in 0..<200 {
        let l = engine.makeLayer()
        l.frame = Rect(rng.double(0, 380), rng.double(0, 280), 20, 20)
        l.backgroundColor = Color(red: rng.double(0, 1), green: rng.double(0, 1), blue: rng.double(0, 1))
        try engine.root.addSublayer(l)
    }
    let mover = engine.makeLayer()
    mover.frame = Rect(10, 10, 20, 20)
    mover.backgroundColor = Color(red: 1, green: 0, blue: 0)
    try engine.root.addSublayer(mover)
    let target = RenderTarget()
    #expect(try engine.render(into: target) == [PixelRect(x: 0, y: 0, width: 400, height: 300)])
    #expect(target.lastWasFull)
    // Nothing changed: nothing drawn.
    #expect(try engine.render(into: target) == [])
    try engine.withoutActions { mover.position = Point(200.5, 150) }
    let damage = try engine.render(into: target)
    // The old and new boxes, each grown by the 2-pixel margin.
    #expect(Set(damage) == [PixelRect(x: 8, y: 8, width: 24, height: 24), PixelRect(x: 188, y: 138, width: 25, height: 24)])
    #expect(!target.lastWasFull)
    #expect(sameBytes(target.frame!, try engine.render()))
}

/// A deterministic generator for the seeded tests.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 11
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func double(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() % 1_000_000) / 1_000_000 }
    mutating func chance(_ p: Double) -> Bool { double(0, 1) < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
}

/// Random scenes of every drawing feature the compositor has, changed a little
/// each frame (with implicit animations running), rendered both ways.
struct DamageScene {
    var rng: SeededRandom
    let engine: Engine
    var layers: [Layer] = []
    let image: Image
    /// The changes made, for failure messages.
    var log: [String] = []
    /// What tiled layers paint their tiles with (a change and a
    /// setNeedsDisplay redraw them at the next render).
    final class Ink { var color = Color(red: 0.3, green: 0.6, blue: 0.2) }
    let ink = Ink()

    init(seed: UInt64) throws {
        rng = SeededRandom(seed: seed)
        engine = try Engine(size: Size(120, 90), scale: seed % 3 == 0 ? 2 : 1)
        if rng.chance(0.7) { engine.root.backgroundColor = Color(red: 0.9, green: 0.95, blue: 1) }
        image = try Image(width: 7, height: 5)
        image.withMutablePixels { data, stride in
            for y in 0..<5 { for x in 0..<7 {
                let w: UInt32 = 0xFF00_0000 | UInt32(x * 36) << 16 | UInt32(y * 60) << 8 | 0x40
                data.storeBytes(of: w, toByteOffset: y * stride + x * 4, as: UInt32.self)
            } }
        }
        try engine.withoutActions {
            for _ in 0..<(8 + rng.below(18)) { try addLayer() }
        }
    }

    mutating func color() -> Color {
        Color(red: rng.double(0, 1), green: rng.double(0, 1), blue: rng.double(0, 1), alpha: rng.chance(0.3) ? rng.double(0.2, 1) : 1)
    }

    mutating func addLayer() throws {
        let kinds: [LayerKind] = [.layer, .layer, .layer, .layer, .shapeLayer, .textLayer, .gradientLayer, .replicatorLayer,
                                  .emitterLayer, .tiledLayer]
        let kind = rng.chance(0.9) ? .layer : rng.pick(kinds)
        let l = engine.makeLayer(kind: kind)
        l.frame = Rect(rng.double(-20, 110), rng.double(-20, 80), rng.double(2, 50), rng.double(2, 40))
        l.backgroundColor = rng.chance(0.8) ? color() : nil
        switch kind {
        case .shapeLayer:
            try l.setValue(.path(Path([.move(Point(0, 0)), .line(Point(30, 5)), .line(Point(10, 25)), .close])), forKeyPath: "path")
            try l.setValue(.color(color()), forKeyPath: "strokeColor")
            try l.setValue(.number(rng.double(0, 4)), forKeyPath: "lineWidth")
        case .textLayer:
            try l.setValue(.string("Hi 42"), forKeyPath: "string")
            try l.setValue(.number(rng.double(6, 14)), forKeyPath: "fontSize")
        case .gradientLayer:
            try l.setValue(.array([.color(color()), .color(color())]), forKeyPath: "colors")
        case .replicatorLayer:
            try l.setValue(.number(Double(2 + rng.below(3))), forKeyPath: "instanceCount")
            try l.setValue(.transform(Transform3D(AffineTransform.translation(rng.double(-10, 10), rng.double(0, 12)))), forKeyPath: "instanceTransform")
        case .tiledLayer:
            let ink = self.ink
            try l.setValue(.size(Size(16, 16)), forKeyPath: "tileSize")
            try l.setValue(.number(rng.chance(0.5) ? 0 : 0.25), forKeyPath: "fadeDuration")
            l.drawHandler = { _, ctx in
                try ctx.setFillColor(ink.color)
                try ctx.fillRect(ctx.clipBoundingBox.insetBy(2, 2))
            }
        default: break
        }
        let parents = [engine.root!] + layers.filter { $0.kind == .layer || $0.kind == .replicatorLayer }
        try rng.pick(parents).addSublayer(l)
        layers.append(l)
        if rng.chance(0.2) { try mutate(l) }
    }

    /// One change to `l`, chosen at random.
    mutating func mutate(_ l: Layer) throws {
        let choice = rng.below(27)
        log.append("layer \(layers.firstIndex { $0 === l } ?? -1) (\(l.kind.className)) change \(choice)")
        switch choice {
        case 0, 1, 2: l.position = Point(rng.double(-10, 130), rng.double(-10, 100))
        case 3: l.bounds = Rect(0, 0, rng.double(0, 60), rng.double(0, 50))
        case 4: l.backgroundColor = rng.chance(0.8) ? color() : nil
        case 5: l.opacity = rng.pick([0, 0.3, 0.7, 1])
        case 6: l.hidden.toggle()
        case 7: l.transform = Transform3D(AffineTransform.rotation(rng.double(-1, 1)).scaled(rng.double(0.5, 1.5), rng.double(0.5, 1.5)))
        case 8: l.zPosition = rng.double(-2, 2)
        case 9: l.cornerRadius = rng.double(0, 10)
        case 10: l.masksToBounds.toggle()
        case 11:
            l.borderWidth = rng.double(0, 3)
            l.borderColor = color()
        case 12:
            l.shadowOpacity = rng.chance(0.7) ? rng.double(0.3, 1) : 0
            l.shadowRadius = rng.double(0, 6)
            l.shadowOffset = Size(rng.double(-4, 4), rng.double(-4, 4))
        case 13: l.shadowPath = rng.chance(0.5) ? Path([.move(Point(0, 0)), .line(Point(20, 0)), .line(Point(0, 20)), .close]) : nil
        case 14:
            let parents = [engine.root!] + layers.filter { $0 !== l && $0.kind == .layer && !l.isAncestor(of: $0) }
            if rng.chance(0.3) { l.removeFromSuperlayer() } else { try rng.pick(parents).addSublayer(l) }
        case 15:
            if l.kind == .layer, rng.chance(0.6) {
                let m = engine.makeLayer()
                m.frame = Rect(rng.double(0, 20), rng.double(0, 20), rng.double(5, 40), rng.double(5, 40))
                m.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: rng.double(0.3, 1))
                m.cornerRadius = rng.double(0, 8)
                try l.setMask(m)
            } else if l.kind == .layer {
                try l.setMask(nil)
            }
        case 16:
            l.contents = rng.chance(0.7) ? image : nil
            l.contentsGravity = rng.pick([.resize, .center, .topLeft, .resizeAspectFill])
        case 17: l.geometryFlipped.toggle()
        case 18: l.sublayerTransform = Transform3D(AffineTransform.translation(rng.double(-5, 5), rng.double(-5, 5)))
        case 19: l.allowsGroupOpacity.toggle()
        case 20: l.shouldRasterize.toggle()
        case 21: l.anchorPoint = Point(rng.double(0, 1), rng.double(0, 1))
        case 22: if layers.count < 60 { try addLayer() }
        case 26:
            // The contents' filters (trilinear builds mipmaps, on the calling thread only).
            l.minificationFilter = rng.pick(ContentsFilter.allCases)
            l.magnificationFilter = rng.pick(ContentsFilter.allCases)
            l.contentsGravity = rng.pick([.resize, .resizeAspectFill])
            l.contents = rng.chance(0.8) ? image : nil
        case 25:
            // A transition from how the layer looks now (slid or faded).
            let t = Transition()
            t.type = rng.pick(Transition.Kind.allCases)
            t.subtype = rng.pick(Transition.Direction.allCases)
            t.timing.duration = rng.pick([0.2, 0.6])
            _ = try l.addAnimation(t, forKey: nil)
            l.backgroundColor = color()
        case 23:
            // New tile contents: drawn at the render, not a property change.
            ink.color = color()
            for t in layers where t.kind == .tiledLayer {
                if rng.chance(0.5) { t.setNeedsDisplay() } else { t.setNeedsDisplay(in: Rect(0, 0, 20, 20)) }
            }
        default:
            if l.kind == .layer, rng.chance(0.5) {
                var t = Transform3D.identity
                t.m34 = -1 / 300
                l.transform = t.concatenating(.rotation(rng.double(-0.8, 0.8), 0, 1, 0))
            } else {
                l.transform = .identity
            }
        }
    }

    /// One frame: a few changes (animated unless actions are off), then time passes.
    mutating func advance() throws {
        for _ in 0..<(1 + rng.below(3)) {
            let l = rng.pick(layers)
            if rng.chance(0.5) { try engine.withoutActions { try mutate(l) } } else { try mutate(l) }
        }
        let dt = rng.pick([0, 1.0 / 60, 0.1, 0.3])
        log.append("step \(dt)")
        try engine.step(dt)
    }
}

/// Thousands of seeded frames: a partial redraw equals a full one byte for byte.
/// CALUNA_DAMAGE_SEEDS raises the count for a longer run (docs/rendering.md).
@Test func partialRedrawsEqualFullRedrawsForSeededRandomScenes() throws {
    let seeds = UInt64(getenv("CALUNA_DAMAGE_SEEDS").flatMap { Int(String(cString: $0)) } ?? 60)
    var partial = 0, frames = 0
    for seed in 0..<seeds {
        var scene = try DamageScene(seed: seed)
        let target = RenderTarget()
        for frame in 0..<40 {
            try scene.advance()
            try scene.engine.render(into: target)
            if !target.lastWasFull { partial += 1 }
            frames += 1
            // The plain path: a full redraw blurring every shadow afresh.
            let full = try scene.engine.renderWithoutEffectCache()
            guard sameBytes(target.frame!, full) else {
                if let path = getenv("CALUNA_DAMAGE_DUMP") {
                    let f = fopen(path, "w")
                    fputs(scene.engine.root.presentationLayer!.jsonDescription(), f)
                    fclose(f)
                }
                let again = try scene.engine.render()
                Issue.record("seed \(seed), frame \(frame) (two full renders \(sameBytes(again, full) ? "agree" : "differ")): partial redraw differs at \(firstDifference(target.frame!, full)); damage \(target.damage); last changes: \(scene.log.suffix(12).joined(separator: "; "))")
                return
            }
        }
    }
    // The partial path is the one being tested: most frames take it.
    #expect(partial * 3 > frames, "\(partial) of \(frames) frames were partial")
}

/// Layers keep one target's damage records: a second target rendering the
/// same engine in between makes the first redraw in full, never stale.
@Test func twoTargetsOnOneEngineStayExact() throws {
    var scene = try DamageScene(seed: 11)
    let a = RenderTarget(), b = RenderTarget()
    for frame in 0..<30 {
        try scene.advance()
        let target = frame % 3 == 2 ? b : a
        try scene.engine.render(into: target)
        #expect(sameBytes(target.frame!, try scene.engine.render()), "frame \(frame)")
    }
}

/// Without a target rendering, a presentation layer's list of changed
/// sublayers stays bounded while sublayers come and go.
@Test func changedSublayerListsStayBoundedWithoutATarget() throws {
    let engine = try Engine(size: Size(50, 50))
    for i in 0..<2000 {
        let l = engine.makeLayer()
        l.frame = Rect(Double(i % 40), 0, 5, 5)
        try engine.root.addSublayer(l)
        try engine.step(1.0 / 60)
        try engine.withoutActions { l.position = Point(10, 10) }
        try engine.step(1.0 / 60)
        l.removeFromSuperlayer()
    }
    try engine.step(1.0 / 60)
    let root = try #require(engine.root.presentationLayer)
    #expect(root.changedChildren.count <= 2 * root.sublayers.count + 64)
}

/// A tile fading in inside a rasterized layer (a unit) changes with the
/// clock: the unit is damaged at every step until the fade ends.
@Test func aFadingTileInsideARasterizedLayerIsDamagedAsTheClockMoves() throws {
    let e = try Engine(size: Size(100, 100))
    let host = e.makeLayer()
    host.frame = Rect(10, 10, 60, 60)
    host.shouldRasterize = true
    let tiled = e.makeLayer(kind: .tiledLayer)
    tiled.frame = Rect(0, 0, 50, 50)
    tiled.drawHandler = { _, ctx in
        try ctx.setFillColor(.black)
        try ctx.fillRect(ctx.clipBoundingBox)
    }
    try host.addSublayer(tiled)
    try e.root.addSublayer(host)
    let target = RenderTarget()
    try e.render(into: target)
    for step in 0..<4 {
        try e.step(0.05)
        #expect(try e.render(into: target) != [], "step \(step): the fade moved")
        #expect(sameBytes(target.frame!, try e.renderWithoutEffectCache()), "step \(step)")
    }
}

/// Hiding the only shown sublayer of a faded layer ends its opacity group,
/// which rounds every pixel of it differently: the layer is damaged, though
/// the sublayer lies elsewhere.
@Test func endingAnOpacityGroupDamagesTheLayer() throws {
    let e = try Engine(size: Size(100, 100))
    let faded = e.makeLayer(), far = e.makeLayer()
    faded.frame = Rect(10, 10, 20, 20)
    faded.backgroundColor = Color(red: 0.2, green: 0.6, blue: 0.3)
    faded.opacity = 0.7
    far.frame = Rect(60, 60, 10, 10)
    far.backgroundColor = .black
    try faded.addSublayer(far)
    try e.root.addSublayer(faded)
    let target = RenderTarget()
    try e.render(into: target)
    e.withoutActions { far.hidden = true }
    let damage = try e.render(into: target)
    #expect(damage.contains { $0.contains(PixelRect(x: 10, y: 10, width: 20, height: 20)) }, "\(damage)")
    #expect(sameBytes(target.frame!, try e.renderWithoutEffectCache()))
}

/// A slide in progress draws the new content and the snapshot where the
/// slide has them, outside the layer's bounds: its extent (which sizes a
/// unit around it) covers both.
@Test func aSlidingTransitionsExtentCoversBothContents() throws {
    let engine = try Engine(size: Size(200, 100))
    let l = engine.makeLayer()
    try engine.withoutActions {
        l.frame = Rect(50, 20, 100, 50)
        l.backgroundColor = .white
        try engine.root.addSublayer(l)
    }
    try engine.step(0)
    let t = Transition()
    t.type = .push
    t.subtype = .fromLeft
    t.timing.duration = 1
    _ = try l.addAnimation(t, forKey: nil)
    l.backgroundColor = .black
    try engine.step(0.3)
    let p = try #require(engine.root.ensurePresentation().sublayers.first?.transitionFrame?.progress)
    let e = try #require(engine.root.ensurePresentation().sublayers.first?.visualExtent())
    // New content still 100 × (1 − p) to the left, the snapshot 100 × p to the right.
    #expect(e.minX <= -100 * (1 - p) + 1e-9 && e.maxX >= 100 + 100 * p - 1e-9, "\(e) at \(p)")
}

/// A raster cache is keyed on a transition's progress, not on the frame
/// object that carries it (the next step's can take the same address).
@Test func aRasterCacheKeyFollowsATransitionsProgress() {
    let l = Layer(engine: nil, kind: .layer)
    let t = Transition()
    l.transitionFrame = TransitionFrame(transition: t, progress: 0.25)
    let a = RasterFingerprint.of(l, flipped: false)
    l.transitionFrame = TransitionFrame(transition: t, progress: 0.5)
    #expect(RasterFingerprint.of(l, flipped: false) != a)
    l.transitionFrame = TransitionFrame(transition: t, progress: 0.25)
    #expect(RasterFingerprint.of(l, flipped: false) == a)
}
