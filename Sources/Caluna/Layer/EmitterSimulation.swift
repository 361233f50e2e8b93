import Glibc

/// The particles of an emitter layer, in closed form (spec §6 item 8).
///
/// Particle i of a cell is born when the cell's running birth count reaches
/// i + 1; its random values come from a counter-based hash of (seed, cell,
/// i), and where it is at age a is p0 + v·a + ½·acc·a². Nothing is stepped,
/// so the particles at local time t are the same however the clock got to t.
///
/// The emission history is a list of stretches: each layer or cell change
/// starts one at the time it is made (the layer's local time), holding the
/// values then. A particle is made from its stretch's values, so changing
/// birthRate, velocity or emitterPosition affects particles born afterwards
/// and never moves the ones already flying (as in Core Animation).
final class EmitterSimulation {
    @WeakLink var layer: Layer?
    private(set) var cells: [EmitterCell] = []
    private var stretches: [Stretch] = []
    /// The render-time sprite cache (EmitterRendering.swift); kept here, on
    /// the model layer's history, so snapshots of the model share it.
    var renderCache: AnyObject? = nil

    struct Stretch {
        var start: Double
        var layer: EmitterLayerState
        var cells: [EmitterCellSnapshot]
        /// Per layer cell: particles born before `start`.
        var births: [Double]
    }

    /// Live particles gathered per layer and frame at most; cells are
    /// gathered in the layer's order, newest particles first, so past the
    /// limit the oldest particles (and later cells) are left out.
    static let maximumParticles = 10_000
    /// History kept at most (stretches whose particles all died are dropped
    /// sooner).
    static let maximumStretches = 4096
    /// The highest effective birth rate (layer × cell), per second: particle
    /// indices stay exact in a Double for 100 days of emission.
    static let maximumBirthRate = 1.0e9

    init(layer: Layer) { self.layer = layer }

    /// The history of `layer`'s model layer (nil when no cells were ever set).
    static func of(_ layer: Layer) -> EmitterSimulation? { layer.modelLayer.kindCache as? EmitterSimulation }

    /// A layer property changed (on the model, or on a presentation copy an
    /// animation writes): a new stretch from now.
    static func noteChange(of layer: Layer) {
        guard let s = of(layer) else { return }
        s.record(layer.state.specialised.value.emitter, at: localNow(layer))
    }

    /// A cell changed: a new stretch with the layer's latest values.
    func noteChange() {
        guard let l = layer else { return }
        record(stretches.last?.layer ?? l.state.specialised.value.emitter, at: EmitterSimulation.localNow(l))
    }

    func setCells(_ new: [EmitterCell]) {
        cells = new
        for c in new { c.addOwner(self) }
        noteChange()
    }

    static func localNow(_ layer: Layer) -> Double { layer.localTime(atMediaTime: layer.engine?.mediaTime ?? 0) }

    private func record(_ state: EmitterLayerState, at time: Double) {
        let snaps = cells.map(\.snapshot)
        guard let last = stretches.last else {
            stretches.append(Stretch(start: time, layer: state, cells: snaps, births: Array(repeating: 0, count: snaps.count)))
            return
        }
        if last.layer == state && last.cells == snaps { return }
        // Local time can run backwards (a negative speed): changes then
        // apply from the latest stretch on.
        let t = max(time, last.start)
        var births = last.births
        if births.count < snaps.count { births += Array(repeating: 0, count: snaps.count - births.count) }
        for c in 0..<min(last.cells.count, births.count) {
            if let w = Self.window(last.cells[c].parameters, last.layer, from: last.start, to: t) {
                births[c] += w.rate * (w.to - w.from)
            }
        }
        let next = Stretch(start: t, layer: state, cells: snaps, births: births)
        if t == last.start { stretches[stretches.count - 1] = next } else { stretches.append(next) }
        prune(now: t)
    }

    /// Drops stretches all of whose particles (and sub-particles) are dead.
    private func prune(now: Double) {
        var drop = 0
        while drop + 1 < stretches.count {
            let s = stretches[drop]
            let horizon = s.cells.map { Self.horizon($0, s.layer) }.max() ?? 0
            guard stretches[drop + 1].start + horizon < now || stretches.count - drop > Self.maximumStretches else { break }
            drop += 1
        }
        if drop > 0 { stretches.removeFirst(drop) }
    }

    /// Where a cell emits inside [from, to) and at what rate; nil when it does not.
    static func window(_ p: EmitterCellParameters, _ l: EmitterLayerState, from: Double, to: Double)
        -> (from: Double, to: Double, rate: Double)? {
        guard p.enabled else { return nil }
        let rate = min(p.birthRate * l.birthRate, maximumBirthRate)
        let stop = p.duration > 0 ? p.beginTime + p.duration : Double.infinity
        let a = max(from, p.beginTime, 0), b = min(to, stop)
        guard rate > 0, rate.isFinite, b > a else { return nil }
        return (a, b, rate)
    }

    /// The longest a particle of this cell, or one it emits, lives.
    static func horizon(_ c: EmitterCellSnapshot, _ l: EmitterLayerState) -> Double {
        let own = max(0, c.parameters.lifetime + c.parameters.lifetimeRange / 2) * l.lifetime
        return own + (c.subcells.map { horizon($0, l) }.max() ?? 0)
    }

    // MARK: particles at one time

    /// The live particles at local time `t` of `shown` (the presentation
    /// layer the compositor draws, or the model), in drawing order; at most
    /// `limit` (the newest are kept).
    func frame(for shown: Layer, at t: Double, limit: Int = maximumParticles) -> EmitterFrame {
        let state = shown.state.specialised.value.emitter
        // An animation that ended left its last frame's values in the history.
        if let last = stretches.last, last.layer != state { record(state, at: t) }
        var g = Gatherer(time: t, limit: limit)
        let cellCount = stretches.map(\.cells.count).max() ?? 0
        outer: for c in 0..<cellCount {
            for k in stretches.indices.reversed() where c < stretches[k].cells.count {
                let s = stretches[k]
                let end = k + 1 < stretches.count ? min(stretches[k + 1].start, t) : t
                guard let w = Self.window(s.cells[c].parameters, s.layer, from: s.start, to: end) else { continue }
                let snap = s.cells[c], horizon = Self.horizon(snap, s.layer)
                guard t - w.to <= horizon else { continue }
                let n0 = c < s.births.count ? s.births[c] : 0
                guard let lo = wholeIndex(n0.rounded(.down)),
                      let hi = wholeIndex((n0 + w.rate * (w.to - w.from)).rounded(.down) - 1), hi >= lo else { continue }
                let cellKey = mix(mix(UInt64(s.layer.seed) &+ 0x5EED, UInt64(c + 1)), 0)
                let style = g.style(snap.parameters, path: [k, c])
                var i = hi
                while i >= lo {
                    let birth = w.from + (Double(i) + 1 - n0) / w.rate
                    if t - birth > horizon { break }
                    let key = mix(cellKey, UInt64(i))
                    let origin = Self.birthOffset(s.layer, ParticleRandom(key: key))
                    let p = s.layer.emitterPosition
                    let start = Vec3(p.x + origin.x, p.y + origin.y, s.layer.emitterZPosition + origin.z)
                    guard g.emit(snap, s.layer, key: key, birth: birth, origin: start, level: 0, styleIndex: style,
                                 path: [k, c], top: c) else { break outer }
                    i -= 1
                }
            }
        }
        g.frame.order(state.renderMode)
        return g.frame
    }

    private func wholeIndex(_ v: Double) -> Int64? {
        guard v.isFinite, v >= -1, v < 9.0e18 else { return nil }
        return Int64(v)
    }

    /// Where on the emitter shape a particle is born, from the centre.
    static func birthOffset(_ l: EmitterLayerState, _ r: ParticleRandom) -> Vec3 {
        let w = l.emitterSize.width, h = l.emitterSize.height, d = l.emitterDepth
        let u1 = r.u(20), u2 = r.u(21), u3 = r.u(22), u4 = r.u(23)
        func corner(_ n: Int) -> Vec3 {   // bit 0: x, 1: y, 2: z
            Vec3((n & 1 == 0 ? -w : w) / 2, (n & 2 == 0 ? -h : h) / 2, (n & 4 == 0 ? -d : d) / 2)
        }
        func pick(_ u: Double, _ n: Int) -> Int { min(Int(u * Double(n)), n - 1) }
        func sphereDirection() -> Vec3 {
            let z = 2 * u1 - 1, phi = 2 * Double.pi * u2, s = (1 - z * z).squareRoot()
            return Vec3(s * cos(phi), s * sin(phi), z)
        }
        switch (l.emitterShape, l.emitterMode) {
        case (.point, _): return Vec3(0, 0, 0)
        case (.line, .points): return Vec3(u1 < 0.5 ? -w / 2 : w / 2, 0, 0)
        case (.line, _): return Vec3((u1 - 0.5) * w, 0, 0)
        case (.rectangle, .points): return corner(pick(u1, 4)).flat
        case (.rectangle, .outline):
            var s = u1 * 2 * (w + h)
            if s < w { return Vec3(s - w / 2, -h / 2, 0) }
            s -= w
            if s < h { return Vec3(w / 2, s - h / 2, 0) }
            s -= h
            if s < w { return Vec3(w / 2 - s, h / 2, 0) }
            return Vec3(-w / 2, h / 2 - (s - w), 0)
        case (.rectangle, _): return Vec3((u1 - 0.5) * w, (u2 - 0.5) * h, 0)
        case (.circle, .points), (.sphere, .points): return Vec3(0, 0, 0)
        case (.circle, .outline):
            return Vec3(w / 2 * cos(2 * Double.pi * u1), w / 2 * sin(2 * Double.pi * u1), 0)
        case (.circle, _):
            let r = w / 2 * u2.squareRoot(), a = 2 * Double.pi * u1
            return Vec3(r * cos(a), r * sin(a), 0)
        case (.cuboid, .points): return corner(pick(u1, 8))
        case (.cuboid, .outline):
            // 12 edges: 4 along each axis, picked by length.
            guard w + h + d > 0 else { return Vec3(0, 0, 0) }
            let s = u1 * (w + h + d), q = pick(u2, 4)
            let a = q & 1 == 0 ? -0.5 : 0.5, b = q & 2 == 0 ? -0.5 : 0.5
            if s < w { return Vec3((u3 - 0.5) * w, a * h, b * d) }
            if s < w + h { return Vec3(a * w, (u3 - 0.5) * h, b * d) }
            return Vec3(a * w, b * h, (u3 - 0.5) * d)
        case (.cuboid, .surface):
            let xy = w * h, xz = w * d, yz = h * d, total = xy + xz + yz
            guard total > 0 else { return Vec3(0, 0, 0) }
            let s = u1 * total, side = u2 < 0.5 ? -0.5 : 0.5
            if s < xy { return Vec3((u3 - 0.5) * w, (u4 - 0.5) * h, side * d) }
            if s < xy + xz { return Vec3((u3 - 0.5) * w, side * h, (u4 - 0.5) * d) }
            return Vec3(side * w, (u3 - 0.5) * h, (u4 - 0.5) * d)
        case (.cuboid, .volume): return Vec3((u1 - 0.5) * w, (u2 - 0.5) * h, (u3 - 0.5) * d)
        case (.sphere, .volume): return sphereDirection().scaled(w / 2 * cbrt(u3))
        case (.sphere, _): return sphereDirection().scaled(w / 2)
        }
    }
}

/// A point or vector in the emitter's 3D space.
struct Vec3 {
    var x, y, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    func scaled(_ k: Double) -> Vec3 { Vec3(x * k, y * k, z * k) }
    var flat: Vec3 { Vec3(x, y, 0) }
}

/// splitmix64's output function: a well-mixed 64-bit hash of `x`.
@inline(__always)
func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

@inline(__always)
func mix(_ a: UInt64, _ b: UInt64) -> UInt64 { mix(a ^ mix(b &+ 0x632B_E59B_D9B4_E019)) }

/// The random values of one particle: value k is a hash of (particle, k),
/// uniform in [0, 1). caluna's own generator (spec §6 item 8): tests check
/// statistics and determinism, never Apple's exact positions.
struct ParticleRandom {
    let key: UInt64
    func u(_ k: UInt64) -> Double { Double(mix(key, k) >> 11) * 0x1p-53 }
    /// mean ± range/2, uniform (Apple's rule for every range).
    func around(_ mean: Double, _ range: Double, _ k: UInt64) -> Double { mean + (u(k) - 0.5) * range }
}
