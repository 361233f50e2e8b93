import Glibc

/// One live particle at one time, in the emitter layer's coordinates.
public struct EmitterParticle: Equatable {
    public var position: Point
    public var z: Double
    public var age: Double
    public var lifetime: Double
    /// In the emitter layer's local time.
    public var birthTime: Double
    /// The cell's colour with its ranges and speeds applied, each component
    /// clamped to [0, 1]; alpha included.
    public var color: Color
    public var scale: Double
    /// Radians turned so far (spin × age).
    public var angle: Double
    /// 0 for the layer's cells, 1 for particles their particles emit, …
    public var level: Int
    /// The template in `EmitterFrame.cells`.
    public var cell: Int
    /// The layer cell the particle descends from (drawing groups by it).
    public var topCell: Int
}

/// What an emitter layer shows at one time.
public struct EmitterFrame {
    public var particles: [EmitterParticle] = []
    /// The cell values particles were made from (`EmitterParticle.cell`).
    public var cells: [EmitterCellParameters] = []
    /// True when the particle budget (`Gatherer`) cut the gathering short.
    public var truncated = false

    /// Drawing order: unordered is the layer's cells in order, each oldest
    /// first (sub-particles with their layer cell's); the others sort by
    /// birth or depth (stable).
    mutating func order(_ mode: EmitterRenderMode) {
        let indexed = particles.enumerated()
        let sorted: [(offset: Int, element: EmitterParticle)]
        switch mode {
        case .unordered, .additive:
            sorted = indexed.sorted { ($0.element.topCell, $0.element.birthTime, $0.offset) < ($1.element.topCell, $1.element.birthTime, $1.offset) }
        case .oldestFirst:
            sorted = indexed.sorted { ($0.element.birthTime, $0.offset) < ($1.element.birthTime, $1.offset) }
        case .oldestLast:
            sorted = indexed.sorted { ($1.element.birthTime, $0.offset) < ($0.element.birthTime, $1.offset) }
        case .backToFront:
            sorted = indexed.sorted { ($0.element.z, $0.element.birthTime, $0.offset) < ($1.element.z, $1.element.birthTime, $1.offset) }
        }
        particles = sorted.map(\.element)
    }
}

/// Gathers particles with a budget: at most `limit` live ones (at most
/// `maximumParticles`, less when the render's budget is nearly spent), and at
/// most four times as many candidates looked at (so a huge birthRate or a
/// lifetime range full of dead particles cannot hang a frame).
struct Gatherer {
    let time: Double
    var frame = EmitterFrame()
    private var styles: [[Int]: Int] = [:]
    private let limit: Int
    private var work: Int

    init(time: Double, limit: Int = EmitterSimulation.maximumParticles) {
        self.time = time
        self.limit = max(0, min(limit, EmitterSimulation.maximumParticles))
        work = 4 * self.limit
    }

    mutating func style(_ p: EmitterCellParameters, path: [Int]) -> Int {
        if let i = styles[path] { return i }
        frame.cells.append(p)
        styles[path] = frame.cells.count - 1
        return frame.cells.count - 1
    }

    /// One particle born at `birth` (local time) at `origin`, and what it
    /// emits; false when the budget ran out.
    mutating func emit(_ snap: EmitterCellSnapshot, _ l: EmitterLayerState, key: UInt64, birth: Double,
                       origin: Vec3, level: Int, styleIndex: Int, path: [Int], top: Int) -> Bool {
        work -= 1
        guard work >= 0, frame.particles.count < limit else {
            frame.truncated = true
            return false
        }
        let p = snap.parameters, r = ParticleRandom(key: key), age = time - birth
        let lifetime = max(0, r.around(p.lifetime, p.lifetimeRange, 0)) * l.lifetime
        let speed = r.around(p.velocity, p.velocityRange, 1) * l.velocity
        // The cone is a fan of total angle emissionRange around the
        // longitude, tilted out of the plane by the latitude (spec §6 item 8).
        let theta = r.around(p.emissionLongitude, p.emissionRange, 2), lat = p.emissionLatitude
        let v = Vec3(cos(theta) * cos(lat), sin(theta) * cos(lat), sin(lat)).scaled(speed)
        let acc = Vec3(p.xAcceleration, p.yAcceleration, p.zAcceleration)
        func at(_ a: Double) -> Vec3 {
            Vec3(origin.x + v.x * a + acc.x * a * a / 2, origin.y + v.y * a + acc.y * a * a / 2,
                 origin.z + v.z * a + acc.z * a * a / 2)
        }
        if age >= 0, age < lifetime {
            func channel(_ base: Double, _ range: Double, _ speed: Double, _ k: UInt64) -> Double {
                min(max(r.around(base, range, k) + speed * age, 0), 1)
            }
            let c = p.color
            let color = Color(red: channel(c.red, p.redRange, p.redSpeed, 3), green: channel(c.green, p.greenRange, p.greenSpeed, 4),
                              blue: channel(c.blue, p.blueRange, p.blueSpeed, 5), alpha: channel(c.alpha, p.alphaRange, p.alphaSpeed, 6))
            let scale = max(0, r.around(p.scale, p.scaleRange, 7) * l.scale + p.scaleSpeed * age)
            let angle = r.around(p.spin, p.spinRange, 8) * l.spin * age
            let here = at(age)
            frame.particles.append(EmitterParticle(position: Point(here.x, here.y), z: here.z, age: age, lifetime: lifetime,
                                                   birthTime: birth, color: color, scale: scale, angle: angle, level: level,
                                                   cell: styleIndex, topCell: top))
        }
        // Sub-cells: each emits from this particle's position while it
        // lives, in its own direction (not relative to the parent's motion).
        for (j, sub) in snap.subcells.enumerated() {
            guard let w = EmitterSimulation.window(sub.parameters, l, from: 0, to: min(lifetime, age)) else { continue }
            let horizon = EmitterSimulation.horizon(sub, l)
            let n = (w.rate * (w.to - w.from)).rounded(.down)
            guard n >= 1, n < 9.0e18 else { continue }
            let subKey = mix(key, UInt64(j + 1)), subPath = path + [j]
            let subStyle = style(sub.parameters, path: subPath)
            var m = Int64(n) - 1
            while m >= 0 {
                let bornAt = w.from + (Double(m) + 1) / w.rate
                if age - bornAt > horizon { break }
                guard emit(sub, l, key: mix(subKey, UInt64(m)), birth: birth + bornAt, origin: at(bornAt),
                           level: level + 1, styleIndex: subStyle, path: subPath, top: top) else { return false }
                m -= 1
            }
        }
        return true
    }
}

extension Layer {
    /// CAEmitterLayer.emitterCells (empty for none).
    public var emitterCells: [EmitterCell] { EmitterSimulation.of(self)?.cells ?? [] }

    /// Installs the cells; from now on the layer emits them.
    public func setEmitterCells(_ cells: [EmitterCell]) throws {
        guard kind == .emitterLayer else {
            throw CalunaError(.unknownKey, "\(kind.className) has no property 'emitterCells' (it belongs to CAEmitterLayer)")
        }
        try checkModel("emitterCells")
        let depth = cells.map(\.nestingDepth).max() ?? 0
        guard depth <= EmitterCell.maximumNesting else {
            throw CalunaError.invalid("emitterCells: nesting deeper than \(EmitterCell.maximumNesting) levels is not supported")
        }
        let sim: EmitterSimulation
        if let s = EmitterSimulation.of(self) { sim = s } else {
            sim = EmitterSimulation(layer: self)
            kindCache = sim
        }
        sim.setCells(cells)
        markNeedsCommit()
    }

    /// The particles shown now (the presentation layer's, at the engine's
    /// current time), in drawing order.
    public func emitterParticles() throws -> EmitterFrame {
        guard kind == .emitterLayer else {
            throw CalunaError.invalid("particles: \(kind.className) is not an emitter layer (CAEmitterLayer)")
        }
        let shown = presentation() ?? self
        return emitterFrame(of: shown)
    }

    /// The particles of `shown` (this layer or its presentation) at the
    /// engine's current time.
    func emitterFrame(of shown: Layer) -> EmitterFrame {
        guard let sim = EmitterSimulation.of(shown) else { return EmitterFrame() }
        return sim.frame(for: shown, at: EmitterSimulation.localNow(shown))
    }
}
